// The analysis board's move tree: the main line and its variations, a
// current node, and the edits players expect (a different move branches,
// promote a variation, delete from a move on), written out as PGN movetext
// with variations. Moves come with the SAN the server gave; nothing here
// knows the rules.

export interface TreeNode {
  uci: string;
  san: string;
  children: TreeNode[];
}

/** A node's address: the child index taken at each level from the root. */
export type Path = number[];

export class MoveTree {
  readonly root: TreeNode = { uci: '', san: '', children: [] };
  path: Path = [];

  static fromLine(moves: { uci: string; san: string }[]): MoveTree {
    const t = new MoveTree();
    for (const m of moves) t.play(m.uci, m.san);
    return t;
  }

  nodeAt(path: Path): TreeNode | undefined {
    let n: TreeNode | undefined = this.root;
    for (const i of path) n = n?.children[i];
    return n;
  }

  current(): TreeNode {
    return this.nodeAt(this.path) ?? this.root;
  }

  /** The moves from the start to the node at `path` (the current one by default). */
  line(path: Path = this.path): string[] {
    const out: string[] = [];
    let n = this.root;
    for (const i of path) {
      n = n.children[i];
      if (!n) break;
      out.push(n.uci);
    }
    return out;
  }

  /** Plays a move from the current node: follows it if it is already there, else adds a variation. */
  play(uci: string, san: string): void {
    const cur = this.current();
    let i = cur.children.findIndex(c => c.uci === uci);
    if (i < 0) {
      cur.children.push({ uci, san, children: [] });
      i = cur.children.length - 1;
    }
    this.path = [...this.path, i];
  }

  back(): void {
    this.path = this.path.slice(0, -1);
  }

  /** One move on along the main line of the current node. */
  forward(): void {
    if (this.current().children.length) this.path = [...this.path, 0];
  }

  toStart(): void {
    this.path = [];
  }

  toEnd(): void {
    while (this.current().children.length) this.path = [...this.path, 0];
  }

  /** Makes the variation through `path` the main line from where it branches. */
  promote(path: Path = this.path): void {
    // the deepest level where the path leaves the main line
    let level = -1;
    path.forEach((i, d) => {
      if (i !== 0) level = d;
    });
    if (level < 0) return;
    const parent = this.nodeAt(path.slice(0, level))!;
    const [moved] = parent.children.splice(path[level], 1);
    parent.children.unshift(moved);
    const fix = (p: Path): Path => {
      if (p.length <= level || !path.slice(0, level).every((v, d) => p[d] === v)) return p;
      const i = p[level];
      const j = i === path[level] ? 0 : i < path[level] ? i + 1 : i;
      return [...p.slice(0, level), j, ...p.slice(level + 1)];
    };
    this.path = fix(this.path);
  }

  /** Deletes the node at `path` and everything after it; the current node moves out of it. */
  remove(path: Path = this.path): void {
    if (!path.length) return;
    const parent = this.nodeAt(path.slice(0, -1));
    if (!parent) return;
    const last = path[path.length - 1];
    parent.children.splice(last, 1);
    const prefix = path.slice(0, -1);
    const inside = this.path.length >= path.length && path.every((v, d) => this.path[d] === v);
    if (inside) this.path = prefix;
    else if (
      this.path.length >= path.length &&
      prefix.every((v, d) => this.path[d] === v) &&
      this.path[prefix.length] > last
    )
      this.path = [...prefix, this.path[prefix.length] - 1, ...this.path.slice(prefix.length + 1)];
  }

  /**
   * PGN movetext with variations, e.g. "1. e4 e5 (1... c5 2. Nf3) 2. Nf3".
   * `white` says who moves first, `fullmove` the first move's number.
   */
  movetext(white = true, fullmove = 1): string {
    const parts: string[] = [];
    const walk = (node: TreeNode, ply: number, forceNumber: boolean) => {
      // ply counts half-moves from the start; even plies are the first side's
      const main = node.children[0];
      if (!main) return;
      const num = (p: number, force: boolean) => {
        const whiteToMove = (p % 2 === 0) === white;
        const n = fullmove + Math.floor((p + (white ? 0 : 1)) / 2);
        return whiteToMove ? `${n}. ` : force ? `${n}... ` : '';
      };
      parts.push(num(ply, forceNumber) + main.san);
      for (const v of node.children.slice(1)) {
        parts.push('(' + num(ply, true) + v.san);
        walk(v, ply + 1, false);
        parts[parts.length - 1] += ')';
      }
      walk(main, ply + 1, node.children.length > 1);
    };
    walk(this.root, 0, true);
    return parts.join(' ');
  }
}
