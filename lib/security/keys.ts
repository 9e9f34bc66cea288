import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Bare base64 DER, as Alipay's key tool prints a key (no PEM header, often on one line). */
const BARE_BASE64 = /^[A-Za-z0-9+/=\s]{100,}$/;

/**
 * An RSA key given in the environment as PEM text (newlines as they are, or written `\n` on one line; PKCS#8 or
 * PKCS#1, SPKI or a certificate), as bare base64 DER, or as the path of a PEM file. Throws an Error whose message says
 * what is wrong, for lib/env.ts to name the variable.
 */
export function readKey(value: string, kind: 'private' | 'public'): KeyObject {
  let pem = value.trim();
  if (BARE_BASE64.test(pem) && !pem.startsWith('-----BEGIN')) return readBareKey(pem, kind);
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

function readBareKey(base64: string, kind: 'private' | 'public'): KeyObject {
  const der = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  for (const type of kind === 'private' ? (['pkcs8', 'pkcs1'] as const) : (['spki', 'pkcs1'] as const)) {
    try {
      const key =
        kind === 'private'
          ? createPrivateKey({ key: der, format: 'der', type: type as 'pkcs8' | 'pkcs1' })
          : createPublicKey({ key: der, format: 'der', type: type as 'spki' | 'pkcs1' });
      if (key.asymmetricKeyType === 'rsa') return key;
    } catch {
      // the next encoding
    }
  }
  throw new Error(`does not hold an RSA ${kind} key in base64 (DER) form`);
}
