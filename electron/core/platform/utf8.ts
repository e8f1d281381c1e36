// Strict UTF-8 decoding that reports where a file stops being valid, so errors can name the line.

export interface Utf8Problem {
  byteOffset: number;
  line: number;
}

/** Byte offset and 1-based line of the first invalid UTF-8 sequence, or null when the buffer is valid. */
export function findInvalidUtf8(bytes: Uint8Array): Utf8Problem | null {
  let line = 1;
  let i = 0;
  // Each step reads the byte at `i`, which the body has moved on; past the end that is undefined and the scan ends.
  for (let b = bytes[i]; b !== undefined; b = bytes[i]) {
    if (b === 0x0a) line++;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return { byteOffset: i, line };
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return { byteOffset: i, line };
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { byteOffset: i, line };
    i += need + 1;
  }
  return null;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes bytes exactly (a BOM is kept, so re-encoding gives the same bytes); null when invalid. */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}
