// The analysis board's move tree: branching, navigation, promote, delete,
// and PGN movetext with variations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MoveTree } from '../src/tree.ts';

const line = (...sans: string[]) => sans.map(s => ({ uci: s, san: s }));

test('a different move branches; the same move is followed', () => {
  const t = MoveTree.fromLine(line('e4', 'e5', 'Nf3'));
  assert.deepEqual(t.line(), ['e4', 'e5', 'Nf3']);
  t.back();
  t.back();
  t.play('c5', 'c5');
  assert.deepEqual(t.path, [0, 1]);
  assert.deepEqual(t.line(), ['e4', 'c5']);
  t.back();
  t.play('e5', 'e5'); // already there: followed, not duplicated
  assert.deepEqual(t.path, [0, 0]);
  assert.equal(t.nodeAt([0])!.children.length, 2);
  t.toEnd();
  assert.deepEqual(t.line(), ['e4', 'e5', 'Nf3']);
  t.toStart();
  assert.deepEqual(t.line(), []);
  t.forward();
  assert.deepEqual(t.line(), ['e4']);
});

test('movetext: variations in brackets, black moves numbered where needed', () => {
  const t = MoveTree.fromLine(line('e4', 'e5', 'Nf3', 'Nc6'));
  t.path = [0];
  t.play('c5', 'c5');
  t.play('Nf3', 'Nf3');
  t.path = [0, 0, 0];
  t.play('Nf6', 'Nf6');
  assert.equal(t.movetext(), '1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 (2... Nf6)');
  // Black first, from move 12
  const b = MoveTree.fromLine(line('Kg7', 'Qd4'));
  assert.equal(b.movetext(false, 12), '12... Kg7 13. Qd4');
  assert.equal(new MoveTree().movetext(), '');
});

test('promote makes a variation the main line; delete removes it and what follows', () => {
  const t = MoveTree.fromLine(line('e4', 'e5', 'Nf3'));
  t.path = [0];
  t.play('c5', 'c5');
  t.play('Nc3', 'Nc3');
  assert.deepEqual(t.path, [0, 1, 0]);
  t.promote();
  assert.deepEqual(t.path, [0, 0, 0], 'the current node follows its promotion');
  assert.equal(t.movetext(), '1. e4 c5 (1... e5 2. Nf3) 2. Nc3');
  // delete the (former main) e5 variation while standing elsewhere
  t.remove([0, 1]);
  assert.equal(t.movetext(), '1. e4 c5 2. Nc3');
  assert.deepEqual(t.line(), ['e4', 'c5', 'Nc3']);
  // delete from the current node: the current node becomes its parent
  t.remove();
  assert.deepEqual(t.line(), ['e4', 'c5']);
  t.remove([]);
  assert.deepEqual(t.line(), ['e4', 'c5'], 'the root cannot be deleted');
});

test('deleting an earlier sibling keeps the current node', () => {
  const t = MoveTree.fromLine(line('e4'));
  t.toStart();
  t.play('d4', 'd4');
  t.toStart();
  t.play('c4', 'c4');
  assert.deepEqual(t.path, [2]);
  t.remove([0]);
  assert.deepEqual(t.path, [1]);
  assert.deepEqual(t.line(), ['c4']);
});
