import { describe, expect, it } from 'vitest';
import { GUXIANG } from './fixtures/chinese.js';
import { DECLARATION } from './fixtures/declaration.js';
import { WAGAHAI } from './fixtures/japanese.js';
import { detectLanguage } from './language.js';
import { stopwordLanguages } from './stopwords.js';

/** Article 1 of the Universal Declaration of Human Rights, in several languages. */
const UDHR: Record<string, string> = {
  en: 'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience.',
  fr: 'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience.',
  de: 'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt.',
  es: 'Todos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como están de razón y conciencia.',
  it: 'Tutti gli esseri umani nascono liberi ed eguali in dignità e diritti. Essi sono dotati di ragione e di coscienza.',
  pt: 'Todos os seres humanos nascem livres e iguais em dignidade e em direitos. Dotados de razão e de consciência.',
  nl: 'Alle mensen worden vrij en gelijk in waardigheid en rechten geboren. Zij zijn begiftigd met verstand en geweten.',
  sv: 'Alla människor är födda fria och lika i värde och rättigheter. De har utrustats med förnuft och samvete.',
  pl: 'Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem.',
  ru: 'Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью.',
  uk: 'Всі люди народжуються вільними і рівними у своїй гідності та правах. Вони наділені розумом і совістю.',
  ar: 'يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء.',
  hi: 'सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है।',
  el: 'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα.',
  ko: '모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다.',
  th: 'มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ',
};

describe('detectLanguage', () => {
  it.each(Object.entries(UDHR))('%s: UDHR article 1', (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('tells Japanese (kana) from Chinese (Han only) by script', () => {
    expect(detectLanguage(WAGAHAI)).toBe('ja');
    expect(detectLanguage(GUXIANG)).toBe('zh');
    expect(detectLanguage('東京都')).toBe('zh');
    expect(detectLanguage('東京都に住む')).toBe('ja');
  });

  it('goes by the main script of a mixed text', () => {
    expect(detectLanguage('使用 Node.js 和 TypeScript 开发服务器')).toBe('zh');
    expect(detectLanguage(`${DECLARATION} 故乡`)).toBe('en');
  });

  it('answers English when nothing decides: no stop word, no letter', () => {
    expect(detectLanguage('Kubernetes operator')).toBe('en');
    expect(detectLanguage('12345 !!!')).toBe('en');
    expect(detectLanguage('')).toBe('en');
  });

  it('only ever answers a language with a stop-word list', () => {
    const supported = new Set(stopwordLanguages());
    for (const text of [...Object.values(UDHR), WAGAHAI, GUXIANG, 'Kubernetes', 'ქართული ენა', 'ᏣᎳᎩ']) {
      expect(supported.has(detectLanguage(text)), text).toBe(true);
    }
  });
});
