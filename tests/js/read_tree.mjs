// Print the tree tsshogi (ShogiHome's parser) reads from KIF/KI2/CSA files, one JSON line each.
// Usage: node read_tree.mjs kif|ki2|csa FILE...
import { readFileSync } from "node:fs";
import { importKIF, importKI2, importCSA, Move } from "tsshogi";

const [format, ...files] = process.argv.slice(2);
const importer = { kif: importKIF, ki2: importKI2, csa: importCSA }[format];

function label(move) {
  return move instanceof Move ? move.usi : (move.type === "any" ? move.name : move.type);
}

function walk(node) {
  const children = [];
  for (let child = node.next; child; child = child.branch) {
    children.push(walk(child));
  }
  return [node.ply === 0 ? null : label(node.move), node.comment, children];
}

for (const file of files) {
  const record = importer(readFileSync(file, "utf-8"));
  if (record instanceof Error) {
    console.log(JSON.stringify({ error: record.message }));
  } else {
    console.log(JSON.stringify({ sfen: record.initialPosition.sfen, tree: walk(record.first) }));
  }
}
