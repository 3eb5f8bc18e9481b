/**
 * Base64 helpers on Web-standard APIs only (`atob` / `btoa`), accepting both alphabets: providers
 * send opaque blobs as standard base64 (Gemini `thoughtSignature` over REST) or base64url, and two
 * spellings of the same bytes must compare equal.
 */

const CHUNK = 0x8000;

/** Bytes -> standard base64 (with padding). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + CHUNK));
  }
  return btoa(binary);
}

/** Bytes -> base64url without padding (safe in ids: `[A-Za-z0-9_-]`). */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Base64 or base64url (padding optional) -> bytes. Returns `undefined` for text that is not
 * base64 in either alphabet.
 */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return undefined;
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** True when two base64 / base64url strings encode the same bytes. */
export function sameBase64(left: string, right: string): boolean {
  if (left === right) return true;
  const a = base64ToBytes(left);
  const b = base64ToBytes(right);
  if (!a || !b || a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
