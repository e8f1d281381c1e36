// Seeded pseudo-random numbers (mulberry32) so every generated demo home is reproducible.
import { itemAt } from '../platform/indexed';

/** A small deterministic PRNG; never use Math.random in the generator. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Next 32-bit unsigned integer (mulberry32). */
  nextU32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T extends NonNullable<unknown> | null>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty array');
    return itemAt(items, Math.floor(this.next() * items.length));
  }

  /** One element chosen by integer weights. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    const last = items[items.length - 1];
    if (!last) throw new Error('Rng.weighted: empty array');
    return last[0];
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T extends NonNullable<unknown> | null>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = itemAt(out, i);
      out[i] = itemAt(out, j);
      out[j] = a;
    }
    return out;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      let v = this.nextU32();
      for (let k = 0; k < 4 && i + k < n; k++) {
        out[i + k] = v & 0xff;
        v >>>= 8;
      }
    }
    return out;
  }

  /** `n` lowercase hex characters. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += this.nextU32().toString(16).padStart(8, '0');
    return s.slice(0, n);
  }

  /** A derived, independent generator (for sub-streams that must not shift others). */
  fork(salt: number): Rng {
    return new Rng((this.nextU32() ^ Math.imul(salt, 0x9e3779b1)) >>> 0);
  }
}
