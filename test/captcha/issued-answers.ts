/**
 * Answers the captcha service drew, in order. Test files route `randomAnswer` through `recordAnswer` with
 * vi.mock, so they can answer correctly while the service still stores nothing but a hash.
 */
export const issuedAnswers: string[] = [];

export const lastAnswer = (): string => {
  const a = issuedAnswers.at(-1);
  if (!a) throw new Error('no captcha answer was drawn yet');
  return a;
};
