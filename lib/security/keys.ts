import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * An RSA key given in the environment as PEM text (newlines as they are, or written `\n` on one line) or as the path
 * of a PEM file. Throws an Error whose message says what is wrong, for lib/env.ts to name the variable.
 */
export function readKey(value: string, kind: 'private' | 'public'): KeyObject {
  let pem = value.trim();
  if (!pem.startsWith('-----BEGIN')) {
    try {
      pem = readFileSync(pem, 'utf8');
    } catch {
      throw new Error(`is neither a PEM ${kind} key nor the path of a readable file holding one`);
    }
  }
  pem = pem.replace(/\\n/g, '\n');
  try {
    // A certificate holds a public key too: WeChat's older platform-certificate mode hands one out.
    const key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return key;
  } catch {
    throw new Error(`does not hold an RSA ${kind} key in PEM form`);
  }
}
