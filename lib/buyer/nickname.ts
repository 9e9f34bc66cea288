/**
 * A buyer's nickname (issue 36, docs/profile.md): the rules it is checked by, and the refused-words hook. Pure: the
 * profile's service (./profile.ts) turns a problem into a refusal naming `nickname`, in the caller's language.
 */

/** The shortest and longest nickname, in characters (a CJK character is one). */
export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 20;

/** Letters of any script (CJK included), digits, `_`, `-`, and single spaces between words. */
const NICKNAME_CHARS = /^[\p{L}\p{N}_\- ]+$/u;

/**
 * Words a nickname may not contain (the hook): a deployment's list, or a moderation service behind the same interface.
 * `refused` answers the word found, or null.
 */
export interface RefusedWords {
  refused(nickname: string): string | null;
}

/**
 * The default list: names that pass for the store or its staff, which a buyer receiving a gift (who sees the sender's
 * masked nickname) or a buyer reading another's name must not be misled by. Matched case-insensitively anywhere in the
 * nickname, spaces, `_` and `-` ignored.
 */
export const DEFAULT_REFUSED_WORDS: readonly string[] = [
  'admin',
  'administrator',
  'official',
  'support',
  'customerservice',
  'operator',
  'system',
  'moderator',
  '官方',
  '客服',
  '管理员',
  '运营',
  '系统',
  '平台',
];

function folded(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/** A refused-words check over a list of words (the default list unless another is given). */
export function refusedWordsOf(words: readonly string[] = DEFAULT_REFUSED_WORDS): RefusedWords {
  const list = words.map((word) => ({ word, key: folded(word) })).filter((w) => w.key.length > 0);
  return {
    refused(nickname) {
      const text = folded(nickname);
      return list.find((w) => text.includes(w.key))?.word ?? null;
    },
  };
}

/** What is wrong with a nickname, or null when it may be used. */
export type NicknameProblem = 'length' | 'chars' | 'spaces' | { refused: string };

export function nicknameProblem(nickname: string, words: RefusedWords = refusedWordsOf()): NicknameProblem | null {
  if (nickname !== nickname.trim() || /\s{2,}/.test(nickname)) return 'spaces';
  const length = [...nickname].length;
  if (length < NICKNAME_MIN || length > NICKNAME_MAX) return 'length';
  if (!NICKNAME_CHARS.test(nickname)) return 'chars';
  const word = words.refused(nickname);
  return word ? { refused: word } : null;
}
