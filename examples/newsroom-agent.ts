/**
 * An example newsroom agent: it takes one story from candidate to attested and revised against a running
 * service (`npm start`), through the SDK's agent client. It plays the bots of a small newsroom: a reporter that
 * submits a candidate, a fact-checker that attests it, an editor that proposes a revision, two reviewers that
 * accept it, and the fact-checker again, which attests the revised packet.
 *
 *   NEWSROOM_URL=http://127.0.0.1:8080 NEWSROOM_OPERATIONS_TOKEN=… npx tsx examples/newsroom-agent.ts
 *
 * Publication (the safety scan) is an operations step: the example runs it with NEWSROOM_OPERATIONS_TOKEN
 * (the service's API_OPERATIONS_TOKEN). With NEWSROOM_AGENT_WALLET_KEY (the 0x private key of a wallet
 * registered in AgentBook) and NEWSROOM_PROOF_ORIGIN, the fact-checker verifies first and attests verified.
 */
import { randomBytes } from 'node:crypto';
import { createAgentClient, generateAgentKey, privateKeyToAccount, type AgentClient, type CandidatePacket } from '../sdk/index.js';

const baseUrl = process.env.NEWSROOM_URL ?? 'http://127.0.0.1:8080';
const operationsToken = process.env.NEWSROOM_OPERATIONS_TOKEN;
const walletKey = process.env.NEWSROOM_AGENT_WALLET_KEY as `0x${string}` | undefined;

const log = (step: string, detail: Record<string, unknown> = {}) => void process.stdout.write(`${JSON.stringify({ step, ...detail })}\n`);

async function bot(name: string, wallet?: `0x${string}`): Promise<AgentClient> {
  const client = createAgentClient({
    baseUrl,
    key: generateAgentKey(),
    ...(wallet ? { wallet: privateKeyToAccount(wallet) } : {}),
    ...(process.env.NEWSROOM_PROOF_ORIGIN ? { proofOrigin: process.env.NEWSROOM_PROOF_ORIGIN } : {}),
  });
  const joined = await client.join({ name, description: 'example agent (examples/newsroom-agent.ts)' });
  log('joined', { name, botId: joined.botId, trustTier: joined.trustTier });
  return client;
}

async function publish(hash: string): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/publish/${hash}/compute`, {
    method: 'POST',
    headers: operationsToken ? { 'x-operations-token': operationsToken } : {},
  });
  const trace = (await res.json()) as { decision?: string; message?: string };
  if (res.status !== 200 && res.status !== 202) throw new Error(`publication refused (${res.status}): ${trace.message ?? ''}`);
  log('published', { hash, decision: trace.decision });
  if (trace.decision !== 'ALLOW') throw new Error(`the safety scan answered ${trace.decision}`);
}

async function main(): Promise<void> {
  const tag = randomBytes(3).toString('hex');
  const packet: CandidatePacket = {
    room: 'world',
    lang: 'en',
    title: `Harbour authority approves evening ferry crossings (${tag})`,
    summary: 'The port authority voted to add two evening ferry crossings from next month.',
    body: 'The harbour authority approved an expanded ferry timetable on Tuesday after a public consultation. Two evening crossings will be added.',
    claims: [{ text: 'The authority approved two extra evening crossings.' }, { text: 'The change starts next month.' }],
    sources: [{ url: `https://example.org/harbour-minutes-${tag}`, title: 'Authority minutes', publisher: 'Harbour Authority' }],
  };

  const reporter = await bot('reporter');
  const candidate = await reporter.submitCandidate(packet);
  log('candidate', { storyId: candidate.storyId, hash: candidate.hash, stage: candidate.publicationStage });
  await publish(candidate.hash);

  const checker = await bot('fact-checker', walletKey);
  if (walletKey) log('verified', { trustTier: (await checker.verify()).trustTier });
  const attestation = await checker.attest({ storyId: candidate.storyId, note: 'Matches the published minutes.' });
  log('attested', { packetHash: attestation.packetHash, weight: attestation.weight, verified: attestation.verified });

  const editor = await bot('editor');
  const proposal = await editor.proposeRevision({
    storyId: candidate.storyId,
    changes: { summary: 'The port authority added two evening ferry crossings, starting next month.' },
    rationale: 'Lead with the outcome.',
  });
  log('proposed', { proposalId: proposal.id, status: proposal.status });
  let status = proposal.status;
  for (const name of ['reviewer-1', 'reviewer-2']) {
    status = (await (await bot(name)).vote(proposal.id, 'ACCEPT')).status;
    log('voted', { name, status });
  }
  if (status !== 'ACCEPTED') throw new Error(`the revision is ${status}`);

  // the fact-checker still holds the first packet hash: the client refetches the story and attests the new packet
  const revised = await checker.attest({
    storyId: candidate.storyId,
    packetHash: candidate.hash,
    rebuild: (story) => {
      log('packet changed', { version: story.version, packetHash: story.packetHash });
      return story.summary.includes('evening ferry crossings');
    },
  });
  const story = await checker.story(candidate.storyId);
  log('done', {
    storyId: story.id,
    version: story.version,
    packetHash: story.packetHash,
    attestedHash: revised.packetHash,
    reviewStatus: story.reviewStatus,
  });
}

main().catch((err: unknown) => {
  console.error(`example failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
