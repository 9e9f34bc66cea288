import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

/**
 * A software passkey for tests (issue 31): an ES256 key pair made with node:crypto, answering WebAuthn ceremonies the
 * way a platform authenticator does — authenticator data, client data and the signature built by hand (WebAuthn L2
 * §6.1, §6.5; CBOR by hand, RFC 8949), so the server's verification runs for real on what it gets. `origin` and `rpId`
 * are what the browser would put in: a test of a phishing site passes another origin.
 */
export type SoftwareAuthenticator = {
  credentialId: string;
  /** The signature counter it reports next (set it lower to play a cloned authenticator). */
  counter: number;
  register(options: { challenge: string }, at: { origin: string; rpId: string }): RegistrationResponseJSON;
  authenticate(options: { challenge: string }, at: { origin: string; rpId: string }): AuthenticationResponseJSON;
  /** A copy of this authenticator (the same key pair and credential) reporting `counter` next: a cloned key. */
  clone(counter: number): SoftwareAuthenticator;
};

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');

/** A CBOR byte string's or text string's head (major type 2 or 3) for a length. */
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}
const cborBytes = (b: Buffer) => Buffer.concat([cborHead(2, b.length), b]);
const cborText = (s: string) => Buffer.concat([cborHead(3, Buffer.byteLength(s)), Buffer.from(s)]);

/** The COSE_Key of an EC2 P-256 public key for ES256: {1: 2, 3: -7, -1: 1, -2: x, -3: y}. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]), cborBytes(x), Buffer.from([0x22]), cborBytes(y)]);
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

type KeyMaterial = { publicKey: KeyObject; privateKey: KeyObject; rawId: Buffer };

export function softwareAuthenticator(
  material: KeyMaterial = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }), rawId: randomBytes(32) },
): SoftwareAuthenticator {
  const { publicKey, privateKey, rawId } = material;
  const authData = (rpId: string, flags: number, counter: number, attested?: Buffer) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  };
  const self: SoftwareAuthenticator = {
    credentialId: b64url(rawId),
    counter: 1,
    register(options, at) {
      const idLength = Buffer.from([rawId.length >> 8, rawId.length & 0xff]);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, coseKey(publicKey)]);
      const data = authData(at.rpId, UP | UV | AT, 0, attested);
      const attestationObject = Buffer.concat([
        Buffer.from([0xa3]),
        cborText('fmt'),
        cborText('none'),
        cborText('attStmt'),
        Buffer.from([0xa0]),
        cborText('authData'),
        cborBytes(data),
      ]);
      return {
        id: self.credentialId,
        rawId: self.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, at.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },
    authenticate(options, at) {
      const data = authData(at.rpId, UP | UV, self.counter);
      const client = clientData('webauthn.get', options.challenge, at.origin);
      const signature = sign('sha256', Buffer.concat([data, createHash('sha256').update(client).digest()]), privateKey);
      self.counter += 1;
      return {
        id: self.credentialId,
        rawId: self.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: { clientDataJSON: b64url(client), authenticatorData: b64url(data), signature: b64url(signature) },
      };
    },
    clone(counter) {
      return Object.assign(softwareAuthenticator(material), { counter });
    },
  };
  return self;
}
