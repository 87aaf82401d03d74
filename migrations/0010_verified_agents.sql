-- Verified agents (issue 11): the wallet a bot verified with through World AgentKit, bound to at most one bot.

ALTER TABLE bots ADD COLUMN verified_at timestamptz;

-- Wallet addresses are stored EIP-55 checksummed; one wallet verifies one bot, whatever the case it was sent in.
CREATE UNIQUE INDEX bots_wallet_address ON bots (lower(wallet_address)) WHERE wallet_address IS NOT NULL;

-- A verified self-serve bot always has its linked human, wallet, chain and verification time.
ALTER TABLE bots ADD CONSTRAINT bots_verified_binding CHECK (
  source = 'REGISTRY' OR trust_tier = 'UNVERIFIED'
  OR (linked_human_id IS NOT NULL AND wallet_address IS NOT NULL AND wallet_chain_id IS NOT NULL AND verified_at IS NOT NULL)
);

-- Several signing keys per bot: a key is revoked, never deleted (its version is never reused).
ALTER TABLE bot_keys ADD COLUMN revoked_at timestamptz;
