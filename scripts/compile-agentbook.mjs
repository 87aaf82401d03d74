// Compiles contracts/AgentBook.sol with solc-js (the npm `solc` package, which ships its compiler) and writes
// contracts/AgentBook.json ({ contractName, compiler, abi, bytecode }), the artifact the tests deploy.
// Run: node scripts/compile-agentbook.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const source = fileURLToPath(new URL('../contracts/AgentBook.sol', import.meta.url));
const target = fileURLToPath(new URL('../contracts/AgentBook.json', import.meta.url));
const input = {
  language: 'Solidity',
  sources: { 'AgentBook.sol': { content: readFileSync(source, 'utf8') } },
  // paris: no PUSH0, so the bytecode runs on any local node's default hardfork
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'paris',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const contract = output.contracts['AgentBook.sol'].AgentBook;
const artifact = {
  contractName: 'AgentBook',
  compiler: `solc ${solc.version()}`,
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
writeFileSync(target, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${target}`);
