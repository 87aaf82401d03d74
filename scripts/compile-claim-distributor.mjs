// Compiles contracts/ClaimDistributor.sol with solc-js (the npm `solc` package, which ships its compiler) and writes
// contracts/ClaimDistributor.json ({ contractName, compiler, abi, bytecode }), the artifact the tests deploy.
// Run: node scripts/compile-claim-distributor.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const source = fileURLToPath(new URL('../contracts/ClaimDistributor.sol', import.meta.url));
const target = fileURLToPath(new URL('../contracts/ClaimDistributor.json', import.meta.url));
const input = {
  language: 'Solidity',
  sources: { 'ClaimDistributor.sol': { content: readFileSync(source, 'utf8') } },
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
const contract = output.contracts['ClaimDistributor.sol'].ClaimDistributor;
const artifact = {
  contractName: 'ClaimDistributor',
  compiler: `solc ${solc.version()}`,
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
writeFileSync(target, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${target}`);
