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
}

export const LEXICON: Readonly<Record<string, ActionWords>> = {
  en: {
    strong: [
      'logout', 'logoff', 'signout', 'delete', 'remove', 'deactivate', 'unsubscribe', 'subscribe', 'unlike', 'unfollow',
      'upvote', 'downvote', 'unvote', 'checkout', 'revoke', 'disconnect', 'rollback', 'undo', 'undelete', 'unblock',
      'unmute', 'unwatch', 'unstar', 'confirm', 'approve', 'reject', 'unban', 'uninstall', 'erase', 'unregister',
      'deregister', 'unenroll',
      'log out', 'log off', 'sign out', 'sign off', 'end session', 'add to cart', 'add to basket', 'add to bag',
      'add to wishlist', 'remove from cart', 'empty trash', 'empty cart', 'empty bin', 'mark read', 'mark all read',
      'mark as read', 'mark all as read', 'mark unread', 'mark as unread', 'mark spam', 'mark as spam',
      'reset password', 'password reset', 'cancel subscription', 'cancel order', 'cancel membership', 'place order',
      'buy now', 'order now', 'report abuse', 'report spam', 'report post', 'report comment', 'report user',
      'block user', 'clear history', 'clear cart', 'leave group', 'accept invite', 'accept invitation',
      'decline invitation',
    ],
    weak: [
      'like', 'follow', 'vote', 'flag', 'report', 'block', 'mute', 'ban', 'kick', 'cart', 'basket', 'buy', 'purchase',
      'pay', 'accept', 'decline', 'invite', 'edit', 'submit', 'cancel', 'reset', 'empty', 'clear', 'add', 'hide', 'fave',
      'favorite', 'favourite', 'bookmark', 'join', 'leave', 'restore', 'publish', 'unpublish', 'lock', 'unlock',
      'dismiss', 'retweet', 'repost', 'destroy', 'purge', 'trash', 'save', 'unsave',
    ],
    // OpenID Connect's end_session_endpoint is `endsession` at IdentityServer; ADFS signs out with `wsignout1.0`.
    fused: ['logout', 'logoff', 'signout', 'unsubscribe', 'markread', 'markallread', 'markasread', 'addtocart', 'emptytrash', 'resetpassword', 'deleteaccount', 'endsession'],
    accounts: ['account', 'accounts', 'subscription', 'membership'],
    closers: ['close', 'cancel', 'terminate', 'suspend', 'disable', 'deactivate', 'delete', 'remove'],
  },
  de: {
    strong: [
      'abmelden', 'ausloggen', 'löschen', 'entfernen', 'kündigen', 'abbestellen', 'abonnieren', 'bestätigen',
      'deaktivieren', 'widerrufen', 'zurücksetzen', 'blockieren', 'entfolgen',
      'in den warenkorb', 'zum warenkorb hinzufügen', 'zur kasse', 'jetzt kaufen', 'jetzt bestellen',
      'kostenpflichtig bestellen', 'als gelesen markieren', 'passwort zurücksetzen',
    ],
    weak: ['austragen', 'trennen', 'warenkorb', 'kasse', 'kaufen', 'bestellen', 'bezahlen', 'melden', 'folgen', 'abstimmen', 'gefällt mir', 'stornieren', 'beitreten', 'verlassen'],
    // German writes compounds: `kontoloeschen`, `newsletterabmelden`, `jetztabmelden`.
    fused: ['abmelden', 'ausloggen', 'löschen', 'kündigen', 'abbestellen'],
    accounts: ['konto', 'benutzerkonto', 'kundenkonto', 'mitgliedschaft', 'abo', 'abonnement'],
    closers: ['schließen', 'kündigen', 'löschen', 'auflösen', 'deaktivieren', 'beenden'],
  },
  fr: {
    strong: [
      'déconnexion', 'déconnecter', 'supprimer', 'désabonner', 'désabonnement', 'désinscrire', 'désinscription',
      'confirmer', 'réinitialiser', 'révoquer', 'désactiver', 'résilier', 'désinstaller',
      'se déconnecter', 'ajouter au panier', 'vider le panier', 'passer commande', 'valider la commande',
      'acheter maintenant', 'marquer comme lu', 'signaler un abus', 'ne plus suivre',
    ],
    weak: ['panier', 'commander', 'acheter', 'payer', 'paiement', 'voter', 'aimer', 'suivre', 'signaler', 'bloquer', 'annuler', 'quitter', 'sortir', 'rejoindre'],
    accounts: ['compte', 'abonnement'],
    closers: ['fermer', 'supprimer', 'clôturer', 'résilier', 'désactiver', 'annuler'],
  },
  es: {
    strong: [
      'eliminar', 'borrar', 'desuscribir', 'desuscribirse', 'darse de baja', 'dar de baja', 'confirmar', 'revocar',
      'desactivar', 'desinstalar', 'cerrar sesión', 'finalizar sesión', 'añadir al carrito', 'agregar al carrito',
      'añadir a la cesta', 'comprar ahora', 'finalizar compra', 'realizar pedido', 'restablecer contraseña',
      'cancelar suscripción', 'anular suscripción', 'marcar como leído', 'dejar de seguir',
    ],
    weak: ['salir', 'desconectar', 'carrito', 'cesta', 'comprar', 'pagar', 'votar', 'me gusta', 'seguir', 'denunciar', 'reportar', 'bloquear', 'cancelar', 'restablecer', 'unirse'],
    fused: ['cerrarsesion'],
    accounts: ['cuenta', 'suscripción', 'membresía'],
    closers: ['cerrar', 'eliminar', 'borrar', 'cancelar', 'desactivar', 'dar de baja'],
  },
  pt: {
    strong: [
      'deslogar', 'excluir', 'remover', 'descadastrar', 'descadastre', 'confirmar', 'revogar', 'desativar',
      'terminar sessão', 'encerrar sessão', 'fazer logout', 'adicionar ao carrinho', 'comprar agora',
      'finalizar compra', 'finalizar pedido', 'cancelar assinatura', 'cancelar inscrição', 'redefinir senha',
      'marcar como lido', 'deixar de seguir',
    ],
    weak: ['sair', 'desconectar', 'apagar', 'carrinho', 'comprar', 'pagar', 'votar', 'curtir', 'seguir', 'denunciar', 'bloquear', 'cancelar'],
    accounts: ['conta', 'assinatura'],
    closers: ['encerrar', 'excluir', 'fechar', 'cancelar', 'desativar', 'apagar'],
  },
  it: {
    strong: [
      'disconnetti', 'disconnettiti', 'elimina', 'eliminare', 'cancella', 'rimuovi', 'disiscriviti', 'revoca',
      'disattiva', 'esci dall account', 'annulla iscrizione', 'cancella iscrizione', 'reimposta password',
      'aggiungi al carrello', 'acquista ora', 'compra ora', 'segna come letto', 'smetti di seguire',
    ],
    weak: ['esci', 'conferma', 'carrello', 'acquista', 'compra', 'paga', 'vota', 'mi piace', 'segui', 'segnala', 'blocca', 'annulla'],
    accounts: ['profilo', 'abbonamento'],
    closers: ['chiudi', 'elimina', 'cancella', 'disattiva'],
  },
  nl: {
    strong: [
      'uitloggen', 'afmelden', 'verwijderen', 'uitschrijven', 'bevestigen', 'ontkoppelen', 'afrekenen', 'opzeggen',
      'in winkelwagen', 'toevoegen aan winkelwagen', 'in winkelmandje', 'nu kopen', 'wachtwoord resetten',
      'markeren als gelezen', 'niet meer volgen',
    ],
    weak: ['intrekken', 'winkelwagen', 'winkelmandje', 'kopen', 'betalen', 'bestellen', 'stemmen', 'vind ik leuk', 'volgen', 'rapporteren', 'melden', 'blokkeren', 'annuleren'],
    fused: ['uitloggen', 'afmelden', 'uitschrijven'],
    accounts: ['profiel', 'abonnement', 'lidmaatschap'],
    closers: ['opheffen', 'sluiten', 'opzeggen', 'verwijderen', 'deactiveren'],
  },
  pl: {
    strong: [
      'wyloguj', 'wylogowanie', 'wylogować', 'usuń', 'usunąć', 'wypisz', 'wypisz się', 'potwierdź', 'rozłącz',
      'dezaktywuj', 'do koszyka', 'kup teraz', 'złóż zamówienie', 'resetuj hasło', 'oznacz jako przeczytane',
      'przestań obserwować',
    ],
    weak: ['koszyk', 'kup', 'zapłać', 'głosuj', 'lubię to', 'obserwuj', 'zgłoś', 'zablokuj', 'anuluj'],
    fused: ['wyloguj'],
    accounts: ['konto', 'subskrypcja'],
    closers: ['zamknij', 'usuń', 'dezaktywuj', 'anuluj'],
  },
  tr: {
    strong: [
      'çıkış yap', 'oturumu kapat', 'oturum kapat', 'abonelikten çık', 'aboneliği iptal et', 'sepete ekle',
      'hemen al', 'satın al', 'şifre sıfırla', 'şifreyi sıfırla', 'okundu olarak işaretle', 'takibi bırak',
    ],
    // `/cikis` is the usual log-out route, and çıkış is also "exit" ("Brexit: İngiltere'nin çıkışı").
    weak: ['çıkış', 'sil', 'onayla', 'sepet', 'öde', 'oyla', 'beğen', 'takip et', 'şikayet et', 'engelle', 'iptal'],
    fused: ['cikisyap', 'oturumukapat'],
    accounts: ['hesap', 'hesabı', 'hesabım', 'üyelik', 'abonelik'],
    closers: ['sil', 'kapat', 'dondur', 'iptal', 'iptal et'],
  },
  ru: {
    strong: [
      'выйти', 'разлогиниться', 'удалить', 'отписаться', 'подписаться', 'подтвердить', 'отозвать', 'пожаловаться',
      'отвязать', 'выйти из аккаунта', 'в корзину', 'купить сейчас', 'оформить заказ', 'сбросить пароль',
      'отметить как прочитанное',
      // Latin transliterations in URLs (`/vyiti`, `/udalit-akkaunt`).
      'vyiti', 'vyjti', 'viyti', 'razlogin', 'udalit', 'otpisatsya', 'otpisatsa', 'podtverdit', 'oformit zakaz',
    ],
    weak: ['выход', 'vyhod', 'vykhod', 'отключить', 'корзина', 'korzina', 'купить', 'kupit', 'оплатить', 'голосовать', 'лайк', 'нравится', 'подписка', 'заблокировать', 'отменить'],
    accounts: ['аккаунт', 'учётная запись', 'профиль', 'akkaunt', 'profil'],
    closers: ['удалить', 'закрыть', 'udalit', 'zakryt'],
  },
  uk: {
    strong: [
      'вийти', 'видалити', 'відписатися', 'підписатися', 'підтвердити', 'поскаржитися', 'у кошик', 'в кошик',
      'оформити замовлення', 'купити зараз', 'скинути пароль', 'позначити як прочитане', 'vyity', 'vydalyty',
    ],
    weak: ['вихід', 'vykhid', 'кошик', 'купити', 'оплатити', 'голосувати', 'подобається', 'заблокувати', 'скасувати'],
    accounts: ['акаунт', 'обліковий запис', 'профіль'],
    closers: ['видалити', 'закрити'],
  },
  cs: {
    // Slovak spellings alongside (odhlásiť, zmazať): the two are read together on many sites.
    strong: [
      'odhlásit', 'odhlásiť', 'odhlášení', 'odhlásenie', 'smazat', 'zmazať', 'odstranit', 'odstrániť', 'odpojit',
      'zrušit odběr', 'odhlásit odběr', 'obnovit heslo', 'do košíku', 'do košíka', 'koupit nyní', 'kúpiť teraz',
      'označit jako přečtené', 'přestat sledovat',
    ],
    weak: ['potvrdit', 'košík', 'koupit', 'zaplatit', 'objednat', 'hlasovat', 'to se mi líbí', 'sledovat', 'nahlásit', 'blokovat', 'zrušit'],
    fused: ['odhlásit'],
    accounts: ['účet', 'účtu', 'profil', 'předplatné'],
    closers: ['zrušit', 'smazat', 'zavřít', 'odstranit'],
  },
  sv: {
    // Norwegian and Danish spellings alongside (logg ut, log ud, slett, slet).
    strong: [
      'utloggning', 'radera', 'avregistrera', 'avprenumerera', 'logga ut', 'logg ut', 'log ud', 'ta bort',
      'avsluta prenumeration', 'återställ lösenord', 'koppla från', 'lägg i varukorgen', 'köp nu', 'till kassan',
      'markera som läst', 'sluta följa',
    ],
    weak: ['bekräfta', 'varukorg', 'kundvagn', 'köp', 'betala', 'rösta', 'gilla', 'följ', 'anmäl', 'rapportera', 'blockera', 'slett', 'slet'],
    fused: ['loggaut', 'loggut'],
    accounts: ['konto', 'kontot', 'medlemskap'],
    closers: ['avsluta', 'radera', 'stäng', 'ta bort', 'slett', 'slet'],
  },
  id: {
    // Malay spellings alongside (log keluar, troli).
    strong: [
      'hapus', 'log keluar', 'berhenti berlangganan', 'putuskan sambungan', 'tambah ke keranjang',
      'tambahkan ke keranjang', 'masukkan keranjang', 'beli sekarang', 'buat pesanan', 'atur ulang kata sandi',
      'reset kata sandi', 'tandai sudah dibaca', 'tandai dibaca', 'berhenti mengikuti',
    ],
    weak: ['keluar', 'konfirmasi', 'keranjang', 'troli', 'beli', 'bayar', 'suka', 'ikuti', 'laporkan', 'blokir', 'batalkan'],
    accounts: ['akun'],
    closers: ['hapus', 'tutup', 'nonaktifkan'],
  },
  vi: {
    // Vietnamese is written in syllables; URLs drop the marks (`dang-xuat`). Folded, "đăng" and "đang" are one.
    strong: [
      'đăng xuất', 'thoát tài khoản', 'xóa tài khoản', 'khóa tài khoản', 'đóng tài khoản', 'hủy đăng ký',
      'đặt lại mật khẩu', 'ngắt kết nối', 'thêm vào giỏ', 'thêm vào giỏ hàng', 'mua ngay', 'đánh dấu đã đọc',
      'bỏ theo dõi', 'hủy theo dõi',
    ],
    weak: ['thoát', 'xóa', 'xác nhận', 'giỏ hàng', 'thanh toán', 'đặt hàng', 'bình chọn', 'thích', 'theo dõi', 'báo cáo', 'chặn', 'hủy'],
    fused: ['dangxuat'],
  },
  zh: {
    // Simplified and traditional. 退出 alone is also "to withdraw" (退出欧盟, Brexit) and 注销 is a company's
    // deregistration: both are weak; the compounds that only name the action are strong.
    strong: [
      '退出登录', '退出登錄', '退出帐号', '退出账号', '退出帳號', '安全退出', '登出', '取消订阅', '取消訂閱', '退订', '退訂',
      '重置密码', '重設密碼', '解除绑定', '解绑', '解除綁定', '断开连接', '斷開連接', '加入购物车', '加入購物車',
      '立即购买', '立即購買', '去结算', '提交订单', '提交訂單', '点赞', '點讚', '取消关注', '取消關注', '举报', '舉報',
      '拉黑', '标记为已读', '標記為已讀', '全部已读', '全部已讀',
    ],
    weak: ['退出', '注销', '註銷', '删除', '刪除', '确认', '確認', '撤销', '撤銷', '购物车', '購物車', '购买', '購買', '结算', '結帳', '支付', '付款', '投票', '赞', '讚', '关注', '關注', '收藏', '屏蔽', '封鎖', '取消'],
    accounts: ['账户', '账号', '帐号', '帳號', '帳戶', '用户', '会员', '會員'],
    closers: ['注销', '註銷', '删除', '刪除', '关闭', '關閉', '停用'],
  },
  ja: {
    strong: [
      'ログアウト', 'サインアウト', 'ログオフ', '退会', 'アカウントを削除', '配信停止', '購読解除', '登録解除', '連携解除', '削除する',
      'カートに入れる', 'カートに追加', '今すぐ購入', '購入する', '注文する', '注文を確定', 'パスワードをリセット',
      'パスワード再設定', 'フォローする', 'フォロー解除', '通報する', 'ブロックする', '既読にする', 'すべて既読',
    ],
    weak: ['削除', '退出', '解除', '確認', 'カート', '購入', '注文', '投票', 'いいね', 'フォロー', '通報', 'ブロック', 'キャンセル'],
    accounts: ['アカウント', '会員'],
    closers: ['削除', '閉鎖', '解約', '停止'],
  },
  ko: {
    // Korean spaces its words, but URLs and buttons often fuse them (`회원탈퇴`). 탈퇴 alone is also how
    // Brexit is written (영국의 EU 탈퇴).
    strong: [
      '로그아웃', '로그오프', '회원탈퇴', '탈퇴하기', '구독 취소', '구독취소', '구독 해지', '구독해지', '장바구니 담기',
      '장바구니담기', '바로구매', '구매하기', '주문하기', '결제하기', '비밀번호 재설정', '연결 해제', '신고하기', '차단하기',
      '읽음 표시', '모두 읽음', '팔로우 취소', '언팔로우',
    ],
    weak: ['탈퇴', '삭제', '확인', '장바구니', '구매', '결제', '투표', '좋아요', '팔로우', '신고', '차단', '취소'],
    fused: ['로그아웃', '로그오프', '회원탈퇴', '구독취소', '구독해지', '장바구니담기', '바로구매'],
    accounts: ['계정', '회원', '멤버십'],
    closers: ['삭제', '탈퇴', '해지', '폐쇄'],
  },
  ar: {
    // Read without harakat, with أ/إ/آ as ا and ي/ى/ك as the Persian ی/ک, so one entry serves both languages.
    strong: [
      'تسجيل الخروج', 'تسجيل خروج', 'إلغاء الاشتراك', 'إعادة تعيين كلمة المرور', 'أضف إلى السلة', 'إضافة إلى السلة',
      'أضف للسلة', 'اشتر الآن', 'اشتري الآن', 'إتمام الشراء', 'إتمام الطلب', 'تحديد كمقروء', 'إلغاء المتابعة',
    ],
    weak: ['خروج', 'الخروج', 'حذف', 'تأكيد', 'إلغاء', 'السلة', 'سلة التسوق', 'شراء', 'دفع', 'تصويت', 'إعجاب', 'متابعة', 'إبلاغ', 'حظر'],
    accounts: ['حساب', 'الحساب', 'حسابي'],
    closers: ['حذف', 'إغلاق', 'إلغاء', 'تعطيل'],
  },
  fa: {
    strong: [
      'خروج از حساب', 'خروج از سیستم', 'خارج شدن', 'لغو اشتراک', 'لغو عضویت', 'بازنشانی رمز', 'افزودن به سبد',
      'افزودن به سبد خرید', 'ثبت سفارش', 'نهایی کردن خرید', 'لغو دنبال کردن',
    ],
    weak: ['تایید', 'تأیید', 'سبد خرید', 'خرید', 'پرداخت', 'رای', 'لایک', 'دنبال کردن', 'گزارش', 'مسدود', 'لغو'],
    accounts: ['حساب', 'حساب کاربری'],
    closers: ['حذف', 'بستن', 'غیرفعال'],
  },
  // Beyond the twenty: the log-out and delete words of a few more scripts, so a site in them is not blind.
  th: {
    strong: ['ออกจากระบบ', 'ลบบัญชี', 'ยกเลิกการสมัคร', 'หยิบใส่ตะกร้า', 'เพิ่มลงตะกร้า', 'ซื้อเลย'],
    weak: ['ลบ', 'ตะกร้า', 'ยืนยัน'],
  },
  hi: {
    strong: ['लॉग आउट', 'साइन आउट', 'खाता हटाएं', 'सदस्यता रद्द करें', 'कार्ट में जोड़ें', 'अभी खरीदें'],
    weak: ['हटाएं', 'हटाएँ', 'पुष्टि करें'],
  },
  el: {
    strong: ['αποσύνδεση', 'διαγραφή λογαριασμού', 'απεγγραφή', 'προσθήκη στο καλάθι', 'αγορά τώρα'],
    weak: ['διαγραφή', 'καλάθι', 'έξοδος'],
  },
  he: {
    strong: ['התנתק', 'התנתקות', 'מחיקת חשבון', 'הסרה מרשימת תפוצה', 'הוסף לסל', 'הוספה לסל'],
    weak: ['מחק', 'יציאה', 'סל'],
  },
  fi: {
    strong: ['kirjaudu ulos', 'uloskirjautuminen', 'poista tili', 'peru tilaus', 'lisää ostoskoriin', 'osta nyt'],
    weak: ['poista', 'ostoskori', 'vahvista'],
    fused: ['uloskirjaudu'],
  },
};
