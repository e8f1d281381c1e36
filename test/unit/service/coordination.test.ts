// The coordination object: what one service's run, Apply and history share, and that two services share nothing.
import { describe, expect, it } from 'vitest';
import type { HeldLease } from '../../../electron/core/lease';
import { OWN_WRITE_TTL_MS } from '../../../electron/core/history/own-writes';
import { sha256Text } from '../../../electron/core/review';
import { createCoordination } from '../../../electron/core/service/coordination';

const leaseOn = (dbPath: string): HeldLease => ({ dbPath, lost: false }) as HeldLease;

describe('coordination', () => {
  it('lends a held lease to Apply until it is unlent or lost, and only to its own service', () => {
    const a = createCoordination();
    const b = createCoordination();
    const lease = leaseOn('/h/memories_1.sqlite');
    const unlend = a.leases.lend(lease);
    expect(a.leases.borrowable('/h/memories_1.sqlite')).toBe(lease);
    expect(b.leases.borrowable('/h/memories_1.sqlite')).toBeNull();
    lease.lost = true;
    expect(a.leases.borrowable('/h/memories_1.sqlite')).toBeNull();
    lease.lost = false;
    // A newer lease on the same DB is not dropped by the older one's unlend.
    const newer = leaseOn('/h/memories_1.sqlite');
    a.leases.lend(newer);
    unlend();
    expect(a.leases.borrowable('/h/memories_1.sqlite')).toBe(newer);
  });

  it('announces a settled proposal to every listener, even when one of them throws', () => {
    const c = createCoordination();
    const heard: string[] = [];
    c.settled.on(() => {
      throw new Error('bookkeeping failed');
    });
    const stop = c.settled.on((id, outcome) => heard.push(`${id}:${outcome}`));
    expect(() => c.settled.announce('p1', 'applied')).not.toThrow();
    stop();
    c.settled.announce('p2', 'rejected');
    expect(heard).toEqual(['p1:applied']);
    createCoordination().settled.announce('p3', 'applied');
    expect(heard).toEqual(['p1:applied']);
  });

  it('remembers our own writes by content for a while, per service', () => {
    const c = createCoordination();
    c.ownWrites.note(
      [
        { root: '/r', relPath: 'MEMORY.md', content: 'x\n' },
        { root: '/r', relPath: 'gone.md', content: null },
      ],
      1_000,
    );
    expect(c.ownWrites.latest('/r', 'MEMORY.md', 2_000)).toEqual({ sha256: sha256Text('x\n'), content: 'x\n', at: 1_000 });
    expect(c.ownWrites.latest('/r', 'gone.md', 2_000)).toEqual({ sha256: null, content: null, at: 1_000 });
    expect(c.ownWrites.latest('/r', 'MEMORY.md', 1_000 + OWN_WRITE_TTL_MS + 1)).toBeUndefined();
    expect(createCoordination().ownWrites.latest('/r', 'MEMORY.md', 2_000)).toBeUndefined();
  });
});
