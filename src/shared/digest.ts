// A small, dependency-free digest for plan identities, shard files and
// checkpoint lines (the same code in Node and browsers, no node:crypto).
// FNV-1a over the UTF-16 code units, 64 bits. It catches edits and
// corruption; it is not a signature: anyone can recompute it.

/** FNV-1a 64 (offset 0xcbf29ce484222325, prime 2^40 + 0x1b3) in two 32-bit halves; 16 hex digits. */
export function digest(text: string): string {
  return new Digest().update(text).hex();
}

/** digest() fed piece by piece: update(a).update(b) digests a + b, without building the whole string. */
export class Digest {
  private hi = 0xcbf29ce4;
  private lo = 0x84222325;

  update(text: string): this {
    let { hi, lo } = this;
    for (let i = 0; i < text.length; i++) {
      lo ^= text.charCodeAt(i);
      // h * prime = h * 0x1b3 + (h << 40): lo * 0x1b3 by 16-bit halves, in 32-bit integers throughout (a double and
      // Math.floor for its carry took 1.6x as long: a join plan's digest hashes 48 million characters at n = 23).
      const low = (lo & 0xffff) * 0x1b3;
      const high = (lo >>> 16) * 0x1b3 + (low >>> 16);
      hi = (Math.imul(hi, 0x1b3) + (high >>> 16) + (lo << 8)) | 0;
      lo = (high << 16) | (low & 0xffff);
    }
    this.hi = hi >>> 0;
    this.lo = lo >>> 0;
    return this;
  }

  hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}

/** FNV-1a 32 (with Math.imul) over `text`, going on from `h`: a text's parts hashed in turn hash as the text. */
export function fnv1a(text: string, h = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** A hash as 8 hex digits. */
export function hex8(h: number): string {
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** 8 hex digits: a line check, cheap enough to write on every line. */
export function shortCheck(text: string): string {
  return hex8(fnv1a(text));
}
