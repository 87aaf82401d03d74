// Compiles contracts/<Name>.sol with solc-js (the npm `solc` package, which ships its compiler) and writes
// contracts/<Name>.json ({ contractName, compiler, abi, bytecode }), the artifact the tests deploy.
// Run: node scripts/compile-contract.mjs <Name>   (npm run compile:agentbook, npm run compile:claim-distributor)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const name = process.argv[2];
if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
  console.error('usage: node scripts/compile-contract.mjs <ContractName>   (compiles contracts/<ContractName>.sol)');
  process.exit(2);
}
const source = fileURLToPath(new URL(`../contracts/${name}.sol`, import.meta.url));
const target = fileURLToPath(new URL(`../contracts/${name}.json`, import.meta.url));
const input = {
  language: 'Solidity',
  sources: { [`${name}.sol`]: { content: readFileSync(source, 'utf8') } },
  // paris: no PUSH0, so the bytecode runs on any local node's default hardfork
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'paris',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
// imports such as @openzeppelin/contracts/... are read from node_modules
const findImports = (path) => {
  try {
    return { contents: readFileSync(fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url)), 'utf8') };
  } catch {
    return { error: `not found: ${path}` };
  }
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const contract = output.contracts[`${name}.sol`][name];
const artifact = {
  contractName: name,
  compiler: `solc ${solc.version()}`,
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
writeFileSync(target, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${target}`);
