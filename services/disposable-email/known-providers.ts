/**
 * Mailbox providers whose addresses are real, long-lived inboxes. They win over the heuristics (a provider's
 * domain never "looks random" or lacks a mail host) and over the lists, whose mistakes would otherwise reject
 * millions of real users; an account's DENY override still applies. Exact domains only: a sub-domain of a
 * provider is somebody else's. Alias and relay services (duck.com, simplelogin.com, relay.firefox.com …) are
 * deliberately absent: the lists carry several of them, and forwarding addresses are what the check is for.
 */
const PROVIDERS: Readonly<Record<string, readonly string[]>> = {
  Gmail: ['gmail.com', 'googlemail.com'],
  Outlook: [
    'outlook.com',
    'outlook.de',
    'outlook.fr',
    'outlook.jp',
    'hotmail.com',
    'hotmail.co.uk',
    'hotmail.de',
    'hotmail.fr',
    'hotmail.it',
    'hotmail.es',
    'live.com',
    'live.co.uk',
    'live.de',
    'live.fr',
    'msn.com',
  ],
  Yahoo: [
    'yahoo.com',
    'yahoo.co.uk',
    'yahoo.co.jp',
    'yahoo.de',
    'yahoo.fr',
    'yahoo.it',
    'yahoo.es',
    'ymail.com',
    'rocketmail.com',
  ],
  iCloud: ['icloud.com', 'me.com', 'mac.com'],
  AOL: ['aol.com'],
  Fastmail: ['fastmail.com', 'fastmail.fm'],
  'Proton Mail': ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me'],
  Tuta: ['tutanota.com', 'tutanota.de', 'tuta.io', 'tuta.com'],
  GMX: ['gmx.de', 'gmx.net', 'gmx.com', 'gmx.at', 'gmx.ch'],
  'WEB.DE': ['web.de'],
  'T-Online': ['t-online.de'],
  Posteo: ['posteo.de', 'posteo.net'],
  'mailbox.org': ['mailbox.org'],
  'Mail.com': ['mail.com'],
  Zoho: ['zoho.com', 'zohomail.com', 'zoho.eu'],
  'Mail.ru': ['mail.ru', 'inbox.ru', 'list.ru', 'bk.ru'],
  Yandex: ['yandex.ru', 'yandex.com', 'ya.ru'],
  Rambler: ['rambler.ru'],
  'QQ Mail': ['qq.com', 'foxmail.com'],
  NetEase: ['163.com', '126.com', 'yeah.net'],
  Sina: ['sina.com', 'sina.cn'],
  Aliyun: ['aliyun.com'],
  Naver: ['naver.com'],
  Daum: ['daum.net', 'hanmail.net'],
  Orange: ['orange.fr', 'wanadoo.fr'],
  Free: ['free.fr'],
  'La Poste': ['laposte.net'],
  SFR: ['sfr.fr'],
  Libero: ['libero.it'],
  Virgilio: ['virgilio.it'],
  Seznam: ['seznam.cz'],
  WP: ['wp.pl'],
  o2: ['o2.pl'],
  Interia: ['interia.pl'],
  'ukr.net': ['ukr.net'],
  Rediffmail: ['rediffmail.com'],
  Comcast: ['comcast.net'],
  'AT&T': ['att.net', 'sbcglobal.net'],
  Verizon: ['verizon.net'],
  BT: ['btinternet.com'],
  HEY: ['hey.com'],
  Hushmail: ['hushmail.com'],
  Runbox: ['runbox.com'],
};

const BY_DOMAIN: ReadonlyMap<string, string> = new Map(
  Object.entries(PROVIDERS).flatMap(([name, domains]) => domains.map((d): [string, string] => [d, name])),
);

/** The provider's name for a normalized domain (`gmail.com` → `Gmail`), or null. */
export const knownProvider = (domain: string): string | null => BY_DOMAIN.get(domain) ?? null;

export const KNOWN_PROVIDER_DOMAINS: readonly string[] = [...BY_DOMAIN.keys()];
