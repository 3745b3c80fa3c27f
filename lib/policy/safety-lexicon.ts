// The words of state-changing actions in the twenty languages with the most web pages (English, Chinese,
// Spanish, German, Japanese, French, Portuguese, Russian, Italian, Dutch, Polish, Turkish, Korean, Arabic,
// Persian, Vietnamese, Indonesian, Czech, Swedish, Ukrainian) and a few more, as a site writes them in a path,
// a query or a link's text. safety-words.ts compiles them once at load.
//
// Every entry is written once, with its diacritics: the reader folds both the entry and the URL the same
// way (café = cafe, löschen = loschen, çıkış = cikis, đăng xuất = dang xuat, أ = ا), and a German umlaut is
// also read in its ASCII spelling (löschen = loeschen). Entries of several words are phrases of consecutive
// words (`cerrar-sesion`, `cerrarSesion`, `cerrar_sesión` alike).
//
// Strong or weak. A strong entry is rarely anything but the action and blocks wherever it stands in a short
// component. A weak one is also an everyday word or the noun of a topic ("salir" is to go out, "退出" is
// how Brexit is written, "sil" is SIL, "báo cáo" is a report) and blocks only as the whole component or
// the whole anchor text. When in doubt an entry is weak: as the last segment of a path it still blocks.
//
// Names. Some verbs that change state are also the names of pages: start, build, watch, archive, play, move
// (`/docs/build`, `/blog/archive`, `/watch?v=`, a German site's `/start`). They block only where a route puts an
// action: after the thing it acts on (`/jobs/12/retry`, `/job/solar/build`, `/issues/7/archive`), as the value of
// an operation key (`?action=watch`), or as a query key with a value that is no number (`?watch=topic`, not
// `?start=20`). Alone as a link's text ("Watch", "Archive") they only add to other evidence (safety-signals.ts).

export interface ActionWords {
  /**
   * Block wherever they stand in a short component. In Chinese, Japanese and Thai, written without spaces,
   * an entry is found inside a word: `退出登录` within `用户退出登录`.
   */
  strong: readonly string[];
  /** Everyday words too: block only as a whole component (the last segment, a query key) or whole anchor. */
  weak: readonly string[];
  /** Found inside any word of a short component: compounds and fused spellings (`kontoloeschen`, `회원탈퇴`). */
  fused?: readonly string[];
  /** What an account-wide action acts on. With `closers`, next to each other in either order, they block. */
  accounts?: readonly string[];
  /** Verbs that end or delete an account (`account/close`, `konto-kündigen`), weak on their own. */
  closers?: readonly string[];
  /** Verbs that are also the names of pages: block only where a route puts an action (see above). */
  names?: readonly string[];
}

export const LEXICON: Readonly<Record<string, ActionWords>> = {
  en: {
    strong: [
      'logout', 'logoff', 'signout', 'delete', 'remove', 'deactivate', 'unsubscribe', 'subscribe', 'unlike', 'unfollow',
      'downvote', 'unvote', 'checkout', 'revoke', 'disconnect', 'rollback', 'undo', 'undelete', 'unblock',
      'unmute', 'unstar', 'confirm', 'reject', 'unban', 'uninstall', 'erase', 'unregister',
      'deregister', 'unenroll',
      'log out', 'log off', 'sign out', 'sign off', 'end session', 'add to cart', 'add to basket', 'add to bag',
      'add to wishlist', 'remove from cart', 'empty trash', 'empty cart', 'empty bin', 'mark read', 'mark all read',
      'mark as read', 'mark all as read', 'mark unread', 'mark as unread', 'mark spam', 'mark as spam',
      'reset password', 'password reset', 'cancel subscription', 'cancel order', 'cancel membership', 'place order',
      'buy now', 'order now', 'report abuse', 'report spam', 'report post', 'report comment', 'report user',
      'block user', 'clear history', 'clear cart', 'leave group', 'accept invite', 'accept invitation',
      'decline invitation',
      'reboot', 'restart', 'shutdown', 'poweroff', 'reconnect', 'impersonate', 'unenrol', 'unwatch', 'build now',
      'run now', 'quiet down', 'run cron', 'destroy all', 'wipe out', 'mark all as done', 'retry all',
      'add to favorites', 'add to favourites', 'remove from favorites', 'stop watching', 'start watching',
    ],
    weak: [
      'like', 'follow', 'vote', 'flag', 'report', 'block', 'mute', 'ban', 'kick', 'cart', 'basket', 'buy', 'purchase',
      'pay', 'accept', 'invite', 'submit', 'cancel', 'reset', 'empty', 'clear', 'add', 'hide', 'fave',
      'favorite', 'favourite', 'bookmark', 'join', 'leave', 'restore', 'publish', 'unpublish', 'lock', 'unlock',
      'dismiss', 'retweet', 'repost', 'destroy', 'purge', 'save', 'unsave',
      'enable', 'disable', 'activate', 'retry', 'rerun', 'toggle', 'reopen', 'resolve', 'assign', 'unassign', 'enrol',
      'enroll', 'reload', 'flush', 'reindex', 'kill', 'resend', 'bump', 'snooze', 'verify', 'untrash', 'unhide',
      'unpin',
      'del', 'unsub', 'unarchive', 'approve', 'decline', 'upvote', 'revert',
    ],
    // OpenID Connect's end_session_endpoint is `endsession` at IdentityServer; ADFS signs out with `wsignout1.0`.
    fused: [
      'logout', 'logoff', 'signout', 'unsubscribe', 'markread', 'markallread', 'markasread', 'addtocart', 'emptytrash',
      'resetpassword', 'deleteaccount', 'endsession',
    ],
    accounts: ['account', 'accounts', 'subscription', 'membership'],
    closers: ['close', 'cancel', 'terminate', 'suspend', 'disable', 'deactivate', 'delete', 'remove'],
    names: [
      'start', 'stop', 'run', 'build', 'deploy', 'play', 'pause', 'resume', 'watch', 'mark', 'archive', 'move', 'pin',
      'star', 'merge', 'claim', 'spam', 'install', 'update', 'upgrade', 'sync', 'trigger', 'test', 'send',
      'duplicate', 'clone', 'copy', 'apply', 'react', 'edit', 'fork', 'transfer', 'promote', 'demote', 'rate', 'share',
      'request', 'trash',
    ],
  },
  de: {
    strong: [
      'abmelden', 'ausloggen', 'löschen', 'entfernen', 'kündigen', 'abbestellen', 'abonnieren', 'bestätigen',
      'deaktivieren', 'widerrufen', 'zurücksetzen', 'blockieren', 'entfolgen',
      'in den warenkorb', 'zum warenkorb hinzufügen', 'zur kasse', 'jetzt kaufen', 'jetzt bestellen',
      'kostenpflichtig bestellen', 'als gelesen markieren', 'passwort zurücksetzen',
      'neu starten', 'neustarten', 'herunterfahren', 'jetzt bauen', 'nicht mehr beobachten', 'erneut versuchen',
      'zur merkliste hinzufügen',
    ],
    weak: [
      'austragen', 'trennen', 'warenkorb', 'kasse', 'kaufen', 'bestellen', 'bezahlen', 'melden', 'folgen', 'abstimmen',
      'gefällt mir', 'stornieren', 'beitreten', 'verlassen', 'aktivieren', 'genehmigen', 'freigeben', 'abbrechen',
      'einschreiben', 'austreten', 'zuweisen', 'sperren', 'entsperren', 'wiederherstellen', 'veröffentlichen',
      'ablehnen', 'annehmen', 'abschalten', 'leeren', 'hinzufügen',
    ],
    // German writes compounds: `kontoloeschen`, `newsletterabmelden`, `jetztabmelden`.
    fused: ['abmelden', 'ausloggen', 'löschen', 'kündigen', 'abbestellen'],
    accounts: ['konto', 'benutzerkonto', 'kundenkonto', 'mitgliedschaft', 'abo', 'abonnement'],
    closers: ['schließen', 'kündigen', 'löschen', 'auflösen', 'deaktivieren', 'beenden'],
    names: [
      'beobachten', 'starten', 'stoppen', 'anhalten', 'archivieren', 'verschieben', 'markieren', 'ausführen', 'bauen',
      'bereitstellen',
    ],
  },
  fr: {
    strong: [
      'déconnexion', 'déconnecter', 'supprimer', 'désabonner', 'désabonnement', 'désinscrire', 'désinscription',
      'confirmer', 'réinitialiser', 'révoquer', 'désactiver', 'résilier', 'désinstaller',
      'se déconnecter', 'ajouter au panier', 'vider le panier', 'passer commande', 'valider la commande',
      'acheter maintenant', 'marquer comme lu', 'signaler un abus', 'ne plus suivre',
      'redémarrer', 'se désinscrire', 'réessayer', 'mettre à la corbeille', 'ajouter aux favoris', 'arrêter de suivre',
    ],
    weak: [
      'panier', 'commander', 'acheter', 'payer', 'paiement', 'voter', 'aimer', 'suivre', 'signaler', 'bloquer',
      'annuler', 'quitter', 'sortir', 'rejoindre', 'activer', 'approuver', 'publier', 'dépublier', 'verrouiller',
      'déverrouiller', 'restaurer', 'rejeter', 'refuser', 'accepter', 'inscrire', 'vider', 'purger', 'attribuer',
      'assigner', 'éteindre', 'ajouter',
    ],
    accounts: ['compte', 'abonnement'],
    closers: ['fermer', 'supprimer', 'clôturer', 'résilier', 'désactiver', 'annuler'],
    names: ['archiver', 'déplacer', 'démarrer', 'arrêter', 'lancer', 'exécuter', 'déployer', 'marquer'],
  },
  es: {
    strong: [
      'eliminar', 'borrar', 'desuscribir', 'desuscribirse', 'darse de baja', 'dar de baja', 'confirmar', 'revocar',
      'desactivar', 'desinstalar', 'cerrar sesión', 'finalizar sesión', 'añadir al carrito', 'agregar al carrito',
      'añadir a la cesta', 'comprar ahora', 'finalizar compra', 'realizar pedido', 'restablecer contraseña',
      'cancelar suscripción', 'anular suscripción', 'marcar como leído', 'dejar de seguir',
      'reiniciar', 'reintentar', 'añadir a favoritos', 'agregar a favoritos',
    ],
    weak: [
      'salir', 'desconectar', 'carrito', 'cesta', 'comprar', 'pagar', 'votar', 'me gusta', 'seguir', 'denunciar',
      'reportar', 'bloquear', 'cancelar', 'restablecer', 'unirse', 'activar', 'aprobar', 'publicar', 'desbloquear',
      'restaurar', 'rechazar', 'aceptar', 'inscribirse', 'matricularse', 'abandonar', 'vaciar', 'asignar',
      'suscribirse', 'añadir', 'agregar',
    ],
    fused: ['cerrarsesion'],
    accounts: ['cuenta', 'suscripción', 'membresía'],
    closers: ['cerrar', 'eliminar', 'borrar', 'cancelar', 'desactivar', 'dar de baja'],
    names: ['archivar', 'mover', 'iniciar', 'detener', 'ejecutar', 'desplegar', 'marcar'],
  },
  pt: {
    strong: [
      'deslogar', 'excluir', 'remover', 'descadastrar', 'descadastre', 'confirmar', 'revogar', 'desativar',
      'terminar sessão', 'encerrar sessão', 'fazer logout', 'adicionar ao carrinho', 'comprar agora',
      'finalizar compra', 'finalizar pedido', 'cancelar assinatura', 'cancelar inscrição', 'redefinir senha',
      'marcar como lido', 'deixar de seguir',
      'tentar novamente', 'adicionar aos favoritos',
    ],
    weak: [
      'sair', 'desconectar', 'apagar', 'carrinho', 'comprar', 'pagar', 'votar', 'curtir', 'seguir', 'denunciar',
      'bloquear', 'cancelar', 'ativar', 'aprovar', 'desbloquear', 'restaurar', 'rejeitar', 'aceitar', 'inscrever',
      'matricular', 'esvaziar', 'atribuir', 'assinar', 'desligar', 'adicionar',
    ],
    accounts: ['conta', 'assinatura'],
    closers: ['encerrar', 'excluir', 'fechar', 'cancelar', 'desativar', 'apagar'],
    names: ['arquivar', 'mover', 'iniciar', 'parar', 'executar', 'implantar', 'marcar'],
  },
  it: {
    strong: [
      'disconnetti', 'disconnettiti', 'elimina', 'eliminare', 'cancella', 'rimuovi', 'disiscriviti', 'revoca',
      'disattiva', 'esci dall account', 'annulla iscrizione', 'cancella iscrizione', 'reimposta password',
      'aggiungi al carrello', 'acquista ora', 'compra ora', 'segna come letto', 'smetti di seguire',
      'riavvia', 'riavviare', 'riprova', 'aggiungi ai preferiti',
    ],
    weak: [
      'esci', 'conferma', 'carrello', 'acquista', 'compra', 'paga', 'vota', 'mi piace', 'segui', 'segnala', 'blocca',
      'annulla', 'attiva', 'approva', 'pubblica', 'sblocca', 'ripristina', 'rifiuta', 'accetta', 'iscriviti', 'svuota',
      'assegna', 'abbandona', 'spegni', 'aggiungi',
    ],
    accounts: ['profilo', 'abbonamento'],
    closers: ['chiudi', 'elimina', 'cancella', 'disattiva'],
    names: ['archivia', 'sposta', 'avvia', 'ferma', 'esegui', 'segna'],
  },
  nl: {
    strong: [
      'uitloggen', 'afmelden', 'verwijderen', 'uitschrijven', 'bevestigen', 'ontkoppelen', 'afrekenen', 'opzeggen',
      'in winkelwagen', 'toevoegen aan winkelwagen', 'in winkelmandje', 'nu kopen', 'wachtwoord resetten',
      'markeren als gelezen', 'niet meer volgen',
      'herstarten', 'opnieuw opstarten', 'opnieuw proberen', 'toevoegen aan verlanglijst', 'toevoegen aan favorieten',
    ],
    weak: [
      'intrekken', 'winkelwagen', 'winkelmandje', 'kopen', 'betalen', 'bestellen', 'stemmen', 'vind ik leuk', 'volgen',
      'rapporteren', 'melden', 'blokkeren', 'annuleren', 'activeren', 'deactiveren', 'goedkeuren', 'publiceren',
      'ontgrendelen', 'vergrendelen', 'herstellen', 'afwijzen', 'accepteren', 'inschrijven', 'legen', 'toewijzen',
      'verlaten', 'afsluiten', 'toevoegen',
    ],
    fused: ['uitloggen', 'afmelden', 'uitschrijven'],
    accounts: ['profiel', 'abonnement', 'lidmaatschap'],
    closers: ['opheffen', 'sluiten', 'opzeggen', 'verwijderen', 'deactiveren'],
    names: ['archiveren', 'verplaatsen', 'starten', 'stoppen', 'uitvoeren', 'markeren'],
  },
  pl: {
    strong: [
      'wyloguj', 'wylogowanie', 'wylogować', 'usuń', 'usunąć', 'wypisz', 'wypisz się', 'potwierdź', 'rozłącz',
      'dezaktywuj', 'do koszyka', 'kup teraz', 'złóż zamówienie', 'resetuj hasło', 'oznacz jako przeczytane',
      'przestań obserwować',
      'uruchom ponownie', 'zrestartuj', 'połącz ponownie', 'zapisz się', 'dodaj do ulubionych',
    ],
    weak: [
      'koszyk', 'kup', 'zapłać', 'głosuj', 'lubię to', 'obserwuj', 'zgłoś', 'zablokuj', 'anuluj', 'wyłącz', 'włącz',
      'zatwierdź', 'opublikuj', 'odblokuj', 'przywróć', 'odrzuć', 'akceptuj', 'ponów', 'opróżnij', 'przypisz', 'opuść',
      'dodaj',
    ],
    fused: ['wyloguj'],
    accounts: ['konto', 'subskrypcja'],
    closers: ['zamknij', 'usuń', 'dezaktywuj', 'anuluj'],
    names: ['zatrzymaj', 'uruchom', 'archiwizuj', 'przenieś', 'oznacz'],
  },
  tr: {
    strong: [
      'çıkış yap', 'oturumu kapat', 'oturum kapat', 'abonelikten çık', 'aboneliği iptal et', 'sepete ekle',
      'hemen al', 'satın al', 'şifre sıfırla', 'şifreyi sıfırla', 'okundu olarak işaretle', 'takibi bırak',
      'yeniden başlat', 'devre dışı bırak', 'tekrar dene', 'abone ol', 'favorilere ekle',
    ],
    // `/cikis` is the usual log-out route, and çıkış is also "exit" ("Brexit: İngiltere'nin çıkışı").
    weak: [
      'çıkış', 'sil', 'onayla', 'sepet', 'öde', 'oyla', 'beğen', 'takip et', 'şikayet et', 'engelle', 'iptal',
      'etkinleştir', 'yayınla', 'kilitle', 'kilidi aç', 'geri yükle', 'reddet', 'kabul et', 'kaydol', 'boşalt', 'ata',
      'ayrıl', 'kaldır', 'ekle',
    ],
    fused: ['cikisyap', 'oturumukapat'],
    accounts: ['hesap', 'hesabı', 'hesabım', 'üyelik', 'abonelik'],
    closers: ['sil', 'kapat', 'dondur', 'iptal', 'iptal et'],
    names: ['arşivle', 'taşı', 'başlat', 'durdur', 'çalıştır', 'işaretle'],
  },
  ru: {
    strong: [
      'выйти', 'разлогиниться', 'удалить', 'отписаться', 'подписаться', 'подтвердить', 'отозвать', 'пожаловаться',
      'отвязать', 'выйти из аккаунта', 'в корзину', 'купить сейчас', 'оформить заказ', 'сбросить пароль',
      'отметить как прочитанное',
      // Latin transliterations in URLs (`/vyiti`, `/udalit-akkaunt`).
      'vyiti', 'vyjti', 'viyti', 'razlogin', 'udalit', 'otpisatsya', 'otpisatsa', 'podtverdit', 'oformit zakaz',
      'перезагрузить', 'перезапустить', 'не следить', 'поднять тему', 'добавить в избранное',
    ],
    weak: [
      'выход', 'vyhod', 'vykhod', 'отключить', 'корзина', 'korzina', 'купить', 'kupit', 'оплатить', 'голосовать',
      'лайк', 'нравится', 'подписка', 'заблокировать', 'отменить', 'выключить', 'включить', 'одобрить', 'опубликовать',
      'разблокировать', 'восстановить', 'отклонить', 'принять', 'повторить', 'записаться', 'покинуть', 'очистить',
      'назначить', 'добавить',
    ],
    accounts: ['аккаунт', 'учётная запись', 'профиль', 'akkaunt', 'profil'],
    closers: ['удалить', 'закрыть', 'udalit', 'zakryt'],
    names: ['остановить', 'запустить', 'архивировать', 'переместить', 'отметить', 'следить'],
  },
  uk: {
    strong: [
      'вийти', 'видалити', 'відписатися', 'підписатися', 'підтвердити', 'поскаржитися', 'у кошик', 'в кошик',
      'оформити замовлення', 'купити зараз', 'скинути пароль', 'позначити як прочитане', 'vyity', 'vydalyty',
      'перезавантажити',
    ],
    weak: [
      'вихід', 'vykhid', 'кошик', 'купити', 'оплатити', 'голосувати', 'подобається', 'заблокувати', 'скасувати',
      'вимкнути', 'увімкнути', 'схвалити', 'опублікувати', 'розблокувати', 'відновити', 'відхилити', 'прийняти',
      'очистити', 'додати',
    ],
    accounts: ['акаунт', 'обліковий запис', 'профіль'],
    closers: ['видалити', 'закрити'],
    names: ['зупинити', 'запустити', 'архівувати', 'перемістити', 'позначити', 'стежити'],
  },
  cs: {
    // Slovak spellings alongside (odhlásiť, zmazať): the two are read together on many sites.
    strong: [
      'odhlásit', 'odhlásiť', 'odhlášení', 'odhlásenie', 'smazat', 'zmazať', 'odstranit', 'odstrániť', 'odpojit',
      'zrušit odběr', 'odhlásit odběr', 'obnovit heslo', 'do košíku', 'do košíka', 'koupit nyní', 'kúpiť teraz',
      'označit jako přečtené', 'přestat sledovat',
      'restartovat', 'zkusit znovu', 'přidat do oblíbených',
    ],
    weak: [
      'potvrdit', 'košík', 'koupit', 'zaplatit', 'objednat', 'hlasovat', 'to se mi líbí', 'sledovat', 'nahlásit',
      'blokovat', 'zrušit', 'vypnout', 'zapnout', 'schválit', 'publikovat', 'odemknout', 'zamknout', 'zamítnout',
      'přijmout', 'vyprázdnit', 'přiřadit', 'opustit', 'přidat',
    ],
    fused: ['odhlásit'],
    accounts: ['účet', 'účtu', 'profil', 'předplatné'],
    closers: ['zrušit', 'smazat', 'zavřít', 'odstranit'],
    names: ['zastavit', 'spustit', 'archivovat', 'přesunout', 'označit'],
  },
  sv: {
    // Norwegian and Danish spellings alongside (logg ut, log ud, slett, slet).
    strong: [
      'utloggning', 'radera', 'avregistrera', 'avprenumerera', 'logga ut', 'logg ut', 'log ud', 'ta bort',
      'avsluta prenumeration', 'återställ lösenord', 'koppla från', 'lägg i varukorgen', 'köp nu', 'till kassan',
      'markera som läst', 'sluta följa',
      'starta om', 'stäng av', 'försök igen',
    ],
    weak: [
      'bekräfta', 'varukorg', 'kundvagn', 'köp', 'betala', 'rösta', 'gilla', 'följ', 'anmäl', 'rapportera', 'blockera',
      'slett', 'slet', 'aktivera', 'inaktivera', 'godkänn', 'publicera', 'lås upp', 'återställ', 'avvisa', 'acceptera',
      'töm', 'tilldela', 'lämna', 'lägg till',
    ],
    fused: ['loggaut', 'loggut'],
    accounts: ['konto', 'kontot', 'medlemskap'],
    closers: ['avsluta', 'radera', 'stäng', 'ta bort', 'slett', 'slet'],
    names: ['arkivera', 'flytta', 'starta', 'stoppa', 'markera'],
  },
  id: {
    // Malay spellings alongside (log keluar, troli).
    strong: [
      'hapus', 'log keluar', 'berhenti berlangganan', 'putuskan sambungan', 'tambah ke keranjang',
      'tambahkan ke keranjang', 'masukkan keranjang', 'beli sekarang', 'buat pesanan', 'atur ulang kata sandi',
      'reset kata sandi', 'tandai sudah dibaca', 'tandai dibaca', 'berhenti mengikuti',
      'mulai ulang', 'coba lagi',
    ],
    weak: [
      'keluar', 'konfirmasi', 'keranjang', 'troli', 'beli', 'bayar', 'suka', 'ikuti', 'laporkan', 'blokir', 'batalkan',
      'matikan', 'aktifkan', 'setujui', 'terbitkan', 'buka kunci', 'pulihkan', 'tolak', 'terima', 'kosongkan',
      'tugaskan', 'tinggalkan', 'tambahkan',
    ],
    accounts: ['akun'],
    closers: ['hapus', 'tutup', 'nonaktifkan'],
    names: ['arsipkan', 'pindahkan', 'hentikan', 'jalankan', 'tandai'],
  },
  vi: {
    // Vietnamese is written in syllables; URLs drop the marks (`dang-xuat`). Folded, "đăng" and "đang" are one.
    strong: [
      'đăng xuất', 'thoát tài khoản', 'xóa tài khoản', 'khóa tài khoản', 'đóng tài khoản', 'hủy đăng ký',
      'đặt lại mật khẩu', 'ngắt kết nối', 'thêm vào giỏ', 'thêm vào giỏ hàng', 'mua ngay', 'đánh dấu đã đọc',
      'bỏ theo dõi', 'hủy theo dõi',
      'khởi động lại', 'thử lại',
    ],
    weak: [
      'thoát', 'xóa', 'xác nhận', 'giỏ hàng', 'thanh toán', 'đặt hàng', 'bình chọn', 'thích', 'theo dõi', 'báo cáo',
      'chặn', 'hủy', 'tắt', 'bật', 'phê duyệt', 'xuất bản', 'mở khóa', 'khôi phục', 'từ chối', 'chấp nhận', 'rời khỏi',
    ],
    fused: ['dangxuat'],
    names: ['dừng', 'bắt đầu', 'chạy', 'lưu trữ', 'di chuyển', 'đánh dấu'],
  },
  zh: {
    // Simplified and traditional. 退出 alone is also "to withdraw" (退出欧盟, Brexit) and 注销 is a company's
    // deregistration: both are weak; the compounds that only name the action are strong.
    strong: [
      '退出登录', '退出登錄', '退出帐号', '退出账号', '退出帳號', '安全退出', '登出', '取消订阅', '取消訂閱', '退订', '退訂',
      '重置密码', '重設密碼', '解除绑定', '解绑', '解除綁定', '断开连接', '斷開連接', '加入购物车', '加入購物車',
      '立即购买', '立即購買', '去结算', '提交订单', '提交訂單', '点赞', '點讚', '取消关注', '取消關注', '举报', '舉報',
      '拉黑', '标记为已读', '標記為已讀', '全部已读', '全部已讀',
      '重启', '重新启动', '重新啟動', '重新開機', '关机', '關機', '重试', '重試', '重新运行', '重新執行', '取消点赞', '取消收藏',
    ],
    weak: [
      '退出', '注销', '註銷', '删除', '刪除', '确认', '確認', '撤销', '撤銷', '购物车', '購物車', '购买', '購買', '结算', '結帳', '支付', '付款', '投票',
      '赞', '讚', '关注', '關注', '收藏', '屏蔽', '封鎖', '取消', '启用', '啟用', '禁用', '批准', '审批', '发布', '發佈', '订阅', '訂閱', '解锁', '解鎖',
      '锁定', '鎖定', '恢复', '恢復', '拒绝', '拒絕', '接受', '离开', '離開', '清空', '分配', '指派',
    ],
    accounts: ['账户', '账号', '帐号', '帳號', '帳戶', '用户', '会员', '會員'],
    closers: ['注销', '註銷', '删除', '刪除', '关闭', '關閉', '停用'],
    names: ['归档', '歸檔', '移动', '启动', '啟動', '停止', '运行', '执行', '執行', '部署', '标记', '標記', '暂停', '暫停', '加入'],
  },
  ja: {
    strong: [
      'ログアウト', 'サインアウト', 'ログオフ', '退会', 'アカウントを削除', '配信停止', '購読解除', '登録解除', '連携解除', '削除する',
      'カートに入れる', 'カートに追加', '今すぐ購入', '購入する', '注文する', '注文を確定', 'パスワードをリセット',
      'パスワード再設定', 'フォローする', 'フォロー解除', '通報する', 'ブロックする', '既読にする', 'すべて既読',
      '再起動', 'シャットダウン', '再試行', 'ウォッチ解除', 'ウォッチを開始', 'お気に入りに追加',
    ],
    weak: [
      '削除', '退出', '解除', '確認', 'カート', '購入', '注文', '投票', 'いいね', 'フォロー', '通報', 'ブロック', 'キャンセル', '有効にする', '無効にする', '有効化',
      '無効化', '承認', 'ロック解除', 'ロック', '復元', '却下', '参加', '空にする',
    ],
    accounts: ['アカウント', '会員'],
    closers: ['削除', '閉鎖', '解約', '停止'],
    names: ['ウォッチ', 'アーカイブ', '移動', '開始', '実行', 'デプロイ'],
  },
  ko: {
    // Korean spaces its words, but URLs and buttons often fuse them (`회원탈퇴`). 탈퇴 alone is also how
    // Brexit is written (영국의 EU 탈퇴).
    strong: [
      '로그아웃', '로그오프', '회원탈퇴', '탈퇴하기', '구독 취소', '구독취소', '구독 해지', '구독해지', '장바구니 담기',
      '장바구니담기', '바로구매', '구매하기', '주문하기', '결제하기', '비밀번호 재설정', '연결 해제', '신고하기', '차단하기',
      '읽음 표시', '모두 읽음', '팔로우 취소', '언팔로우',
      '재시작', '재부팅', '다시 시작', '재시도', '즐겨찾기 추가',
    ],
    weak: [
      '탈퇴', '삭제', '확인', '장바구니', '구매', '결제', '투표', '좋아요', '팔로우', '신고', '차단', '취소', '종료', '활성화', '비활성화', '승인', '잠금 해제',
      '잠금', '복원', '거절', '수락', '참여', '나가기', '비우기', '구독',
    ],
    fused: ['로그아웃', '로그오프', '회원탈퇴', '구독취소', '구독해지', '장바구니담기', '바로구매'],
    accounts: ['계정', '회원', '멤버십'],
    closers: ['삭제', '탈퇴', '해지', '폐쇄'],
    names: ['보관', '이동', '시작', '중지', '실행', '배포'],
  },
  ar: {
    // Read without harakat, with أ/إ/آ as ا and ي/ى/ك as the Persian ی/ک, so one entry serves both languages.
    strong: [
      'تسجيل الخروج', 'تسجيل خروج', 'إلغاء الاشتراك', 'إعادة تعيين كلمة المرور', 'أضف إلى السلة', 'إضافة إلى السلة',
      'أضف للسلة', 'اشتر الآن', 'اشتري الآن', 'إتمام الشراء', 'إتمام الطلب', 'تحديد كمقروء', 'إلغاء المتابعة',
      'إعادة التشغيل', 'إيقاف التشغيل', 'إعادة المحاولة', 'أضف إلى المفضلة',
    ],
    weak: [
      'خروج', 'الخروج', 'حذف', 'تأكيد', 'إلغاء', 'السلة', 'سلة التسوق', 'شراء', 'دفع', 'تصويت', 'إعجاب', 'متابعة',
      'إبلاغ', 'حظر', 'تفعيل', 'تعطيل', 'موافقة', 'إلغاء القفل', 'قفل', 'استعادة', 'رفض', 'قبول', 'انضمام', 'مغادرة',
      'إفراغ',
    ],
    accounts: ['حساب', 'الحساب', 'حسابي'],
    closers: ['حذف', 'إغلاق', 'إلغاء', 'تعطيل'],
    names: ['أرشفة', 'نقل', 'بدء', 'إيقاف', 'تشغيل'],
  },
  fa: {
    strong: [
      'خروج از حساب', 'خروج از سیستم', 'خارج شدن', 'لغو اشتراک', 'لغو عضویت', 'بازنشانی رمز', 'افزودن به سبد',
      'افزودن به سبد خرید', 'ثبت سفارش', 'نهایی کردن خرید', 'لغو دنبال کردن',
      'راه اندازی مجدد', 'تلاش مجدد',
    ],
    weak: [
      'تایید', 'تأیید', 'سبد خرید', 'خرید', 'پرداخت', 'رای', 'لایک', 'دنبال کردن', 'گزارش', 'مسدود', 'لغو', 'خاموش',
      'فعال سازی', 'رد', 'پذیرفتن', 'خالی کردن',
    ],
    accounts: ['حساب', 'حساب کاربری'],
    closers: ['حذف', 'بستن', 'غیرفعال'],
    names: ['بایگانی', 'انتقال', 'شروع', 'توقف', 'اجرا'],
  },
  // Beyond the twenty: the log-out and delete words of a few more scripts, so a site in them is not blind.
  th: {
    strong: [
      'ออกจากระบบ', 'ลบบัญชี', 'ยกเลิกการสมัคร', 'หยิบใส่ตะกร้า', 'เพิ่มลงตะกร้า', 'ซื้อเลย', 'รีสตาร์ท', 'เริ่มใหม่',
    ],
    weak: ['ลบ', 'ตะกร้า', 'ยืนยัน'],
  },
  hi: {
    strong: [
      'लॉग आउट', 'साइन आउट', 'खाता हटाएं', 'सदस्यता रद्द करें', 'कार्ट में जोड़ें', 'अभी खरीदें', 'पुनः आरंभ करें',
    ],
    weak: ['हटाएं', 'हटाएँ', 'पुष्टि करें'],
  },
  el: {
    strong: ['αποσύνδεση', 'διαγραφή λογαριασμού', 'απεγγραφή', 'προσθήκη στο καλάθι', 'αγορά τώρα', 'επανεκκίνηση'],
    weak: ['διαγραφή', 'καλάθι', 'έξοδος'],
  },
  he: {
    strong: ['התנתק', 'התנתקות', 'מחיקת חשבון', 'הסרה מרשימת תפוצה', 'הוסף לסל', 'הוספה לסל', 'הפעלה מחדש'],
    weak: ['מחק', 'יציאה', 'סל'],
  },
  fi: {
    strong: [
      'kirjaudu ulos', 'uloskirjautuminen', 'poista tili', 'peru tilaus', 'lisää ostoskoriin', 'osta nyt',
      'käynnistä uudelleen', 'yritä uudelleen',
    ],
    weak: ['poista', 'ostoskori', 'vahvista'],
    fused: ['uloskirjaudu'],
  },
};
