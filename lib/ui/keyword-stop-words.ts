// Words that say nothing of a page's topic, by language, for the keywords "Crawl this site" suggests (page-keywords.ts):
// function words, the verbs and adjectives any page uses ("choosing", "first", "best"), and the words of a site's own
// furniture ("home", "read more"). Far longer than the classifier's list (lib/parse/tokenize.ts), which must not drop
// a word that matters in some domain: here a word left out only leaves the user one fewer suggestion to delete.
// Lower case, as tokenize() writes words; accents kept.

const words = (text: string): readonly string[] => text.trim().split(/\s+/);

export const KEYWORD_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type KeywordLanguage = (typeof KEYWORD_LANGUAGES)[number];

export const STOP_WORDS: Record<KeywordLanguage, readonly string[]> = {
  en: words(`
    a about above after again against all almost along already also although always am among an and another any anyone
    anything are around as at away back be because been before being below beneath beside besides between beyond both but
    by can cannot could did do
    does doing done down during each either else enough even ever every few for from further had has have having he
    her here hers herself him himself his how however i if in inside into is it its itself just least less like me
    might mine more most much must my myself near neither never no nor not now of off often on once one only onto or
    other others otherwise our ours ourselves out over own per perhaps quite rather same she should since so some
    something sometimes still such than that the their theirs them themselves then there these they this those though
    through throughout thus to together too toward towards under until up upon us very via was we well were what
    whatever when where whether which while who whom whose why will with within without would yet you your yours
    yourself yourselves
    first second third last next new old latest recent best better good great big small large little long short high
    low full free
    main top many several various different same own easy simple real right whole general common important favourite
    favorite popular
    way ways thing things part parts kind kinds lot lots bit example examples today year years day days time times
    home page pages welcome menu login logout log sign search click here contact about blog news article articles post
    posts guide guides introduction overview tips tip faq help privacy terms cookies share comment comments reply
    replies view views related see also read more continue skip content navigation account
    choose choosing chose chosen use using used uses make making made makes get getting got gets find finding found
    finds learn learning learned learnt know knowing known take taking took taken give giving gave given go going gone
    come coming came look looking want wanting need needs needed start starting started show showing shown try trying
    keep keeping let put say says said tell telling work works working call called ask asked become becomes seem seems
    feel leave bring begin begins buy buying explain explained explains explaining discover discovering understand
    understanding matter matters born die dies live lives change changes changed include includes including join
    joining
    `),
  de: words(`
    aber alle allem allen aller alles als also am an andere anderen anderer anderes auch auf aus bei beim bin bis bist
    da dabei damit dann das dass daß dazu dein deine dem den denn der des dessen dich die dies diese diesem diesen
    dieser dieses dir doch dort du durch ein eine einem einen einer eines er es etwa euch euer eure für gegen habe haben
    hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer im in ins ist ja jede jedem jeden
    jeder jedes jene jetzt kann kein keine keinem keinen keiner können könnte man mehr mein meine mich mir mit muss
    müssen nach nein nicht nichts noch nun nur ob oder ohne schon sehr sei sein seine seinem seinen seiner seit sich
    sie sind so soll sollen sondern sowie über um und uns unser unsere unter viel viele vom von vor war waren warum
    was weil welche welchem welchen welcher welches wenn wer werden wie wieder wir wird wo wurde wurden zu zum zur
    zwischen
    erste ersten erster erstes zweite neue neuen neuer neues neu beste besten bester gut gute guten großen große groß
    klein kleine viele wichtig wichtige
    art arten teil teile beispiel beispiele jahr jahre tag heute
    startseite seite seiten willkommen menü anmelden abmelden suche suchen kontakt impressum datenschutz hilfe artikel
    übersicht einführung tipps ratgeber weiterlesen mehr lesen siehe auch kommentar kommentare teilen
    wählen wählt wählen auswählen finden findet machen macht nutzen nutzt verwenden verwendet sehen sieht kaufen
    kauft gehen geht gibt geben kommen kommt lernen lernt zeigen zeigt erklärt erklären entdecken verstehen bietet
    bieten
    `),
  fr: words(`
    à au aux avec ce ceci cela celle celles celui ces cet cette chez comme dans de des du elle elles en entre est et
    étaient était été être eux il ils je la le les leur leurs lui ma mais me même mes moi mon ne ni nos notre nous on
    ou où par pas peu plus pour qu que quel quelle quelles quels qui quoi sa sans se ses si son sont sous sur ta te tes
    toi ton tous tout toute toutes très tu un une vos votre vous y a ont avait avaient avoir aussi bien car donc or
    dont ici l d c j n s qu'
    premier première premiers premières nouveau nouvelle nouveaux nouvelles meilleur meilleure meilleurs grand grande
    petit petite plusieurs autre autres bon bonne
    façon manière chose choses partie exemple exemples année jour aujourd'hui
    accueil page pages bienvenue menu connexion déconnexion recherche rechercher contact aide article articles guide
    conseils introduction aperçu lire suite voir aussi commentaire commentaires partager
    choisir choisissez comment trouver trouvez utiliser utilisez lire lisez voir voyez acheter achetez savoir
    apprendre découvrir découvrez comprendre faire fait faites aller venir prendre donner montrer expliquer
    `),
  es: words(`
    a al algo algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos en entre
    era eran es esa esas ese eso esos esta estaba estado están estar este esto estos fue fueron ha han hasta hay la las
    le les lo los más me mi mis mucho muy nada ni no nos nosotros o otra otras otro otros para pero poco por porque que
    quien se ser si sí sin sobre su sus también tanto te tiene tienen todo todos tu tus u un una uno unos unas usted
    ustedes y ya yo cómo qué cuál dónde cuándo quién
    primer primero primera primeros primeras nuevo nueva nuevos nuevas mejor mejores gran grande pequeño pequeña
    varios varias bueno buena
    forma manera cosa cosas parte ejemplo ejemplos año años día hoy
    inicio página páginas bienvenido bienvenida menú acceder buscar búsqueda contacto ayuda artículo artículos guía
    consejos introducción leer más ver también comentario comentarios compartir
    elegir elige elija encontrar encuentra usar utilizar utiliza leer lee ver comprar compra saber aprender aprende
    descubrir descubre entender hacer hace ir venir tomar dar mostrar explicar explica empezar empieza comenzar
    comienza
    `),
};
