/**
 * Where clients stand along a view's sort index, remembered so that a deep page can start from
 * a known client instead of walking the index from the first one (decision 0034). A position
 * holds only at the operator's list version it was read at (owner_totals.list_version, moved on
 * in the same transaction as every write that can change the view, by migration 0018's
 * triggers); the reads that use one check that version in the statement itself, so no instance
 * ever uses a position that a write, its own or another's, has made wrong. Only positions are
 * kept: every page's rows are read afresh.
 */
export interface ListPosition {
  /** How many clients of the view come before this one. */
  position: number;
  /** Its key along the view's sort index: the sort columns, then seq. */
  key: readonly unknown[];
}

/** Views remembered per database, the least recently used forgotten first. */
const VIEWS_KEPT = 500;
/** Positions remembered per view, the oldest forgotten first. */
const POSITIONS_PER_VIEW = 32;

interface ViewPositions {
  version: string;
  positions: ListPosition[];
}

export class ListPositions {
  private readonly views = new Map<string, ViewPositions>();

  /** The position remembered nearest at or before `offset`, if read at `version`. */
  nearest(view: string, version: string, offset: number): ListPosition | undefined {
    const kept = this.views.get(view);
    if (!kept) return undefined;
    this.views.delete(view);
    if (kept.version !== version) return undefined;
    this.views.set(view, kept);
    let nearest: ListPosition | undefined;
    for (const candidate of kept.positions) {
      if (candidate.position <= offset && candidate.position > (nearest?.position ?? -1)) {
        nearest = candidate;
      }
    }
    return nearest;
  }

  /** Remembers a position read at `version`; positions of any other version are dropped. */
  remember(view: string, version: string, position: ListPosition): void {
    const kept = this.views.get(view);
    const positions =
      kept?.version === version
        ? kept.positions.filter((other) => other.position !== position.position)
        : [];
    positions.push(position);
    if (positions.length > POSITIONS_PER_VIEW) positions.shift();
    this.views.delete(view);
    this.views.set(view, { version, positions });
    if (this.views.size > VIEWS_KEPT) {
      const oldest = this.views.keys().next().value;
      if (oldest !== undefined) this.views.delete(oldest);
    }
  }
}

const byDatabase = new WeakMap<object, ListPositions>();

/** The positions remembered for one database handle (each app instance has its own). */
export function listPositionsOf(handle: object): ListPositions {
  let positions = byDatabase.get(handle);
  if (!positions) {
    positions = new ListPositions();
    byDatabase.set(handle, positions);
  }
  return positions;
}
