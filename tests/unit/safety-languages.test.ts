import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../lib/records/config';
import { makeSafetyGuard } from '../../lib/policy/safety';
import { LEXICON } from '../../lib/policy/safety-lexicon';
import { fold, wordsOf } from '../../lib/policy/safety-words';
import { normalizeUrl } from '../../lib/records/url';

const guard = makeSafetyGuard(DEFAULTS.safety);
/** As the crawler hands links over: absolute and normalized (non-ASCII paths %-escaped as UTF-8). */
const check = (path: string, anchor = '') => {
  const url = path.startsWith('http') ? path : `https://shop.test${path}`;
  return guard.check(normalizeUrl(url) ?? url, { anchor });
};

// [language, path, what the guard reports]: links that act as the user, in the languages of the web.
const blocked: [string, string, string][] = [
  // What a logged-in shop let through before, in several languages.
  ['de', '/abmelden', 'abmelden'],
  ['de', '/konto/loeschen', 'löschen'],
  ['fr', '/se-deconnecter', 'se déconnecter'],
  ['zh', '/退出', '退出'],
  ['es', '/salir', 'salir'],
  ['en', '/account/close', 'account close'],
  ['en', '/connect/endsession', 'endsession'],
  ['en', '/logout.srf', 'logout'],
  // Protocol endpoints.
  ['en', '/oidc/end_session?id_token_hint=x', 'end session'],
  ['en', '/oauth2/revoke', 'revoke'],
  ['en', '/saml2/logout', 'logout'],
  ['en', '/saml/SingleLogout', 'logout'],
  ['en', '/realms/acme/protocol/openid-connect/logout', 'logout'],
  ['en', '/cas/logout?service=https%3A%2F%2Fshop.test%2F', 'logout'],
  ['en', '/adfs/ls/?wa=wsignout1.0', 'signout'],
  ['en', '/idp/profile/SAML2/Redirect/SLO', 'slo'],
  ['en', '/app/acme/exk1/slo/saml', 'slo'],
  ['en', '/connect/revocation', 'revocation'],
  // Two-word actions in either order, in one component or across two segments.
  ['en', '/close-account', 'close account'],
  ['en', '/settings/account-close', 'account close'],
  ['en', '/subscription/terminate', 'subscription terminate'],
  ['de', '/konto/schliessen', 'konto schließen'],
  ['fr', '/compte/fermer', 'compte fermer'],
  ['es', '/cuenta/cerrar', 'cuenta cerrar'],
  ['pt', '/encerrar-conta', 'encerrar conta'],
  ['nl', '/account/opheffen', 'account opheffen'],
  ['pl', '/konto/zamknij', 'konto zamknij'],
  ['ru', '/аккаунт/закрыть', 'аккаунт закрыть'],
  ['ja', '/アカウント削除', 'アカウント削除'],
  ['ko', '/계정삭제', '계정삭제'],
  ['zh', '/注销账户', '注销账户'],
  ['ar', '/حذف-الحساب', 'حذف الحساب'],
  ['fa', '/حذف-حساب-کاربری', 'حذف حساب کاربری'],
  // A row per language for the action families: log out, delete, unsubscribe, buy, and the weak verbs.
  ['de', '/konto/löschen', 'löschen'],
  ['de', '/kontoloeschen', 'löschen'],
  ['de', '/ausloggen', 'ausloggen'],
  ['de', '/newsletter-abbestellen', 'abbestellen'],
  ['de', '/in-den-warenkorb?id=3', 'in den warenkorb'],
  ['de', '/zur-kasse', 'zur kasse'],
  ['de', '/beitrag/9/melden', 'melden'],
  ['fr', '/se-déconnecter', 'se déconnecter'],
  ['fr', '/deconnexion', 'déconnexion'],
  ['fr', '/compte/supprimer', 'supprimer'],
  ['fr', '/newsletter/desabonnement', 'désabonnement'],
  ['fr', '/ajouter-au-panier?id=3', 'ajouter au panier'],
  ['fr', '/commentaire/4/signaler', 'signaler'],
  ['es', '/cerrar-sesion', 'cerrar sesión'],
  ['es', '/cuenta/eliminar', 'eliminar'],
  ['es', '/darse-de-baja', 'darse de baja'],
  ['es', '/anadir-al-carrito?id=3', 'añadir al carrito'],
  ['es', '/usuario/jo/seguir', 'seguir'],
  ['pt', '/sair', 'sair'],
  ['pt', '/conta/excluir', 'excluir'],
  ['pt', '/descadastrar', 'descadastrar'],
  ['pt', '/adicionar-ao-carrinho', 'adicionar ao carrinho'],
  ['pt', '/post/3/curtir', 'curtir'],
  ['it', '/esci', 'esci'],
  ['it', '/disconnetti', 'disconnetti'],
  ['it', '/annulla-iscrizione', 'annulla iscrizione'],
  ['it', '/aggiungi-al-carrello', 'aggiungi al carrello'],
  ['it', '/post/3/mi-piace', 'mi piace'],
  ['nl', '/uitloggen', 'uitloggen'],
  ['nl', '/account/verwijderen', 'verwijderen'],
  ['nl', '/nieuwsbrief/afmelden', 'afmelden'],
  ['nl', '/afrekenen', 'afrekenen'],
  ['pl', '/wyloguj', 'wyloguj'],
  ['pl', '/konto/usun', 'usuń'],
  ['pl', '/do-koszyka?id=3', 'do koszyka'],
  ['pl', '/post/3/zglos', 'zgłoś'],
  ['tr', '/cikis', 'çıkış'],
  ['tr', '/çıkış', 'çıkış'],
  ['tr', '/cikis-yap', 'çıkış yap'],
  ['tr', '/oturumu-kapat', 'oturumu kapat'],
  ['tr', '/hesap/sil', 'sil'],
  ['tr', '/sepete-ekle?id=3', 'sepete ekle'],
  ['ru', '/выйти', 'выйти'],
  ['ru', '/vyiti', 'vyiti'],
  ['ru', '/vyhod', 'vyhod'],
  ['ru', '/akkaunt/udalit', 'udalit'],
  ['ru', '/otpisatsya', 'otpisatsya'],
  ['ru', '/в-корзину?id=3', 'в корзину'],
  ['uk', '/вийти', 'вийти'],
  ['uk', '/видалити-акаунт', 'видалити акаунт'],
  ['uk', '/у-кошик', 'у кошик'],
  ['cs', '/odhlasit', 'odhlásit'],
  ['cs', '/odhlaseni', 'odhlášení'],
  ['cs', '/zrusit-odber', 'zrušit odběr'],
  ['cs', '/do-kosiku', 'do košíku'],
  ['sv', '/logga-ut', 'logga ut'],
  ['sv', '/konto/radera', 'radera'],
  ['sv', '/avsluta-konto', 'avsluta konto'],
  ['sv', '/lagg-i-varukorgen', 'lägg i varukorgen'],
  ['id', '/keluar', 'keluar'],
  ['id', '/hapus-akun', 'hapus akun'],
  ['id', '/berhenti-berlangganan', 'berhenti berlangganan'],
  ['id', '/tambah-ke-keranjang', 'tambah ke keranjang'],
  ['vi', '/dang-xuat', 'đăng xuất'],
  ['vi', '/đăng-xuất', 'đăng xuất'],
  ['vi', '/xoa-tai-khoan', 'xóa tài khoản'],
  ['vi', '/huy-dang-ky', 'hủy đăng ký'],
  ['vi', '/gio-hang', 'giỏ hàng'],
  ['zh', '/user/退出登录', '退出登录'],
  ['zh', '/用户退出登录', '退出登录'],
  ['zh', '/登出', '登出'],
  ['zh', '/注销', '注销'],
  ['zh', '/帳號/註銷', '註銷'],
  ['zh', '/取消订阅', '取消订阅'],
  ['zh', '/加入购物车?id=3', '加入购物车'],
  ['ja', '/ログアウト', 'ログアウト'],
  ['ja', '/退会', '退会'],
  ['ja', '/配信停止', '配信停止'],
  ['ja', '/カートに入れる', 'カートに入れる'],
  ['ko', '/로그아웃', '로그아웃'],
  ['ko', '/회원탈퇴', '회원탈퇴'],
  ['ko', '/계정/삭제', '삭제'],
  ['ko', '/장바구니-담기', '장바구니 담기'],
  ['ar', '/تسجيل-الخروج', 'تسجيل الخروج'],
  ['ar', '/خروج', 'خروج'],
  ['ar', '/إلغاء-الاشتراك', 'إلغاء الاشتراك'],
  ['fa', '/لغو-اشتراک', 'لغو اشتراک'],
  ['fa', '/سبد-خرید', 'سبد خرید'],
  ['th', '/ออกจากระบบ', 'ออกจากระบบ'],
  ['hi', '/लॉग-आउट', 'लॉग आउट'],
  // Devanagari vowel signs and viramas are marks inside a word: three words here, not five pieces read as a title.
  ['hi', '/सदस्यता-रद्द-करें', 'सदस्यता रद्द करें'],
  ['el', '/αποσύνδεση', 'αποσύνδεση'],
  ['he', '/התנתק', 'התנתק'],
  ['fi', '/kirjaudu-ulos', 'kirjaudu ulos'],
];

// Topic pages in the same languages that name an action word without being the action.
const allowed: [string, string][] = [
  // Logging in is not an action on the account: the page shows a form, and the crawler never submits one.
  ['en', '/wiki/Login'],
  ['en', '/blog/how-login-systems-work'],
  ['en', '/account/settings'],
  ['en', '/news/close-race'],
  ['en', '/recipes/how-to-remove-the-seeds-from-a-pomegranate'],
  ['en', '/docs/oauth2/token-introspection'],
  ['de', '/geschichte/berliner-mauer-abriss-1989'],
  ['de', '/wiki/Deutsche_Bahn'],
  ['de', '/ratgeber/wohnsitz-abmeldung'],
  ['de', '/rezepte/kuerbiskerne-entfernen-und-roesten-so-gehts'],
  ['fr', '/histoire/la-revolution-francaise'],
  ['fr', '/wiki/Panier_de_la_ménagère'],
  ['es', '/recetas/salir-de-la-rutina-con-pasta'],
  ['es', '/noticias/cuenta-atras-electoral'],
  ['pt', '/noticias/sair-da-crise'],
  ['it', '/storia/la-caduta-dell-impero'],
  ['nl', '/nieuws/stemmen-tellen'],
  ['pl', '/historia/upadek-muru-berlinskiego'],
  ['tr', '/haber/ab-cikisi'],
  ['ru', '/статьи/выход-британии-из-ес'],
  ['ru', '/novosti/vyhod-iz-es'],
  ['ru', '/wiki/Солнечная_батарея'],
  ['uk', '/новини/вихід-з-кризи'],
  ['cs', '/clanky/jak-funguje-prihlaseni'],
  ['id', '/berita/keluar-dari-krisis'],
  ['vi', '/tin-tuc/bao-cao-tai-chinh-2024'],
  ['zh', '/新闻/退出欧盟的影响'],
  ['zh', '/wiki/删除线'],
  ['zh', '/百科/注销公司的流程和材料'],
  ['ja', '/記事/ログインの仕組み'],
  ['ja', '/ニュース/英国のEU離脱'],
  ['ko', '/뉴스/영국-eu-탈퇴'],
  ['ar', '/أخبار/خروج-بريطانيا-من-الاتحاد'],
  ['fa', '/اخبار/گزارش-سالانه'],
];

describe('the guard in the languages of the web', () => {
  it.each(blocked)('%s: keeps %s from being requested (%s)', (_, path, match) => {
    expect(check(path)).toEqual({ rule: 'action verb', match });
  });

  it.each(allowed)('%s: lets the topic page %s through', (_, path) => {
    expect(check(path)).toBeNull();
  });

  it.each([
    ['Abmelden', 'abmelden'],
    ['Se déconnecter', 'se déconnecter'],
    ['退出', '退出'],
    ['安全退出', '安全退出'],
    ['立即退出登录', '退出登录'],
    ['Выйти', 'выйти'],
    ['로그아웃', '로그아웃'],
    ['تسجيل الخروج', 'تسجيل الخروج'],
    ['Cerrar sesión', 'cerrar sesión'],
    ['Wyloguj się', 'wyloguj'],
    ['ログアウト', 'ログアウト'],
    ['Çıkış Yap', 'çıkış yap'],
    ['Đăng xuất', 'đăng xuất'],
    ['Keluar', 'keluar'],
    ['Logga ut', 'logga ut'],
    ['Вийти', 'вийти'],
    ['Mi piace', 'mi piace'],
    ['In den Warenkorb', 'in den warenkorb'],
    ['लॉग आउट करें', 'लॉग आउट'],
  ])('blocks a link whose text is %j', (anchor, match) => {
    expect(check('/p/1', anchor)).toEqual({ rule: 'anchor text', match });
  });

  it.each(['Salir de la rutina', '退出欧盟的影响', 'Выход Британии из ЕС', 'Über das Abmelden vom Wohnsitz', 'ログインの仕組み'])(
    'lets a link whose text is the title %j through',
    (anchor) => {
      expect(check('/p/1', anchor)).toBeNull();
    },
  );
});

describe('how the guard reads a component', () => {
  it('reads long text without spaces as a title, by its length', () => {
    // "Why do I still get notifications after logging out": a help article, not the button.
    expect(check('/帮助/为什么退出登录后还能收到消息通知')).toBeNull();
    expect(check('/帮助/退出登录')).toEqual({ rule: 'action verb', match: '退出登录' });
  });

  it('reads CJK and Spanish title punctuation as a title', () => {
    expect(check('/百科/「退出登录」')).toBeNull();
    expect(check('/foro/¿cerrar-sesion')).toBeNull();
  });

  it('finds a pair only where the two words meet', () => {
    expect(check('/account/close')).toEqual({ rule: 'action verb', match: 'account close' });
    expect(check('/account/close-race')).toEqual({ rule: 'action verb', match: 'account close' });
    expect(check('/account/settings/close')).toBeNull();
    expect(check('/account/how-to-close-it-for-good')).toBeNull();
  });

  it('names SAML and OAuth endpoints only in a path of their protocol', () => {
    expect(check('/wiki/SLO')).toBeNull();
    expect(check('/slo/produkty/notebooky')).toBeNull();
    expect(check('/wiki/Revocation')).toBeNull();
  });

  it('folds accents, Turkish i, ß, ł and Arabic letter forms alike', () => {
    expect(fold('Déconnexion çıkış đăng xuất Straße łódź İptal')).toBe('Deconnexion cikis dang xuat Strasse lodz Iptal');
    expect(fold('أضف إلى السلة')).toBe('اضف الی السلة');
    expect(wordsOf(fold('ログアウト・로그아웃'))).toEqual(['ログアウト', '로그아웃']);
  });
});

describe('the lexicon', () => {
  it('covers the twenty languages with the most web pages', () => {
    const twenty = ['en', 'zh', 'es', 'de', 'ja', 'fr', 'pt', 'ru', 'it', 'nl', 'pl', 'tr', 'ko', 'ar', 'fa', 'vi', 'id', 'cs', 'sv', 'uk'];
    for (const lang of twenty) expect(LEXICON[lang]?.strong.length, lang).toBeGreaterThan(0);
  });

  it('has no word both strong in one language and weak in another', () => {
    const key = (entry: string) => wordsOf(fold(entry)).join(' ');
    const strong = new Set(Object.values(LEXICON).flatMap((l) => l.strong.map(key)));
    expect(Object.values(LEXICON).flatMap((l) => l.weak.map(key)).filter((w) => strong.has(w))).toEqual([]);
  });
});
