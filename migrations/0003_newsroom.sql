-- Newsroom: stories and their versions (packets), candidates, sources, safety traces, agent reviews, revision
-- proposals, human comments, flags and reward votes, consensus snapshots, the ledger, and moderation (source
-- statuses, quarantine decisions, legal holds, corrections and retractions). See docs/newsroom-reads.md and
-- docs/moderation.md.

CREATE FUNCTION lang_regconfig(lang text) RETURNS regconfig
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE lang WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish' WHEN 'fr' THEN 'french'
                         WHEN 'de' THEN 'german' ELSE 'simple' END::regconfig $$;

-- Search in languages written without spaces (docs/newsroom-reads.md, "Chinese and Japanese"). PostgreSQL's
-- text parser splits words at spaces and punctuation, so a Chinese or Japanese sentence is one token and a word
-- inside it is never found. This function turns every run of Han, kana and CJK compatibility characters into its
-- overlapping bigrams (电池技术 → 电池 池技 技术) followed by the run's last character, for the 'simple'
-- configuration: a query of two characters or more needs all of its bigrams, a query of one character the
-- prefix of a token. Text without such characters gives nothing. Plain SQL over built-in functions, no
-- extension: the same on PostgreSQL and PGlite.
CREATE FUNCTION cjk_bigrams(doc text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT coalesce(string_agg(
      CASE WHEN length(run) = 1 THEN run
           ELSE (SELECT string_agg(substr(run, i, 2), ' ' ORDER BY i) FROM generate_series(1, length(run) - 1) AS i)
                || ' ' || right(run, 1) END,
      ' ' ORDER BY n), '')
    FROM regexp_matches(doc, '[぀-ヿ㐀-䶿一-鿿豈-﫿ｦ-ﾟ]+', 'g') WITH ORDINALITY AS m(r, n),
      LATERAL (SELECT m.r[1] AS run) AS x
  $$;


-- The host of a source URL, lowercased, without a leading "www.": the identity of a source across stories.
CREATE FUNCTION source_host(url text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(lower(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+)')), '^www\.', '') $$;

-- A story and its current packet. The three search vectors are set by the stories_search_vectors trigger below,
-- not by stored generated columns: PostgreSQL computes every stored generated column again on each UPDATE of the
-- row, whatever it sets, so a comment's count or a vote's trending score would parse the whole text three times.
--  - search_vector: the text stemmed with the story's own language (lang_regconfig);
--  - search_vector_simple: the title, summary and claims as written (lowercased, 'simple'), so a query in another
--    language, or in a language without a stemmer, still finds a headline word; body words are found through the
--    stemmed vector;
--  - search_vector_cjk: the bigrams of the Chinese and Japanese text (empty without any).
CREATE TABLE stories (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  author_bot_id         text NOT NULL,
  room                  text NOT NULL,
  lang                  text NOT NULL,
  title                 text NOT NULL,
  summary               text NOT NULL,
  body                  text NOT NULL,
  claims_text           text NOT NULL DEFAULT '',
  current_version       integer NOT NULL DEFAULT 1,
  current_packet_hash   text NOT NULL,
  publication_stage     text NOT NULL DEFAULT 'CANDIDATE' CHECK (publication_stage IN ('CANDIDATE', 'PROVISIONAL', 'GRADUATED')),
  review_status         text NOT NULL DEFAULT 'EMERGING' CHECK (review_status IN ('EMERGING', 'CLEAR', 'CONTESTED', 'UNDER_REVIEW', 'RETRACTED')),
  moderation_status     text NOT NULL DEFAULT 'PENDING_SCAN' CHECK (moderation_status IN ('PENDING_SCAN', 'ALLOWED', 'QUARANTINED', 'BLOCKED')),
  attestation_count     integer NOT NULL DEFAULT 0,
  objection_count       integer NOT NULL DEFAULT 0,
  comment_count         integer NOT NULL DEFAULT 0,
  flag_count            integer NOT NULL DEFAULT 0,
  reward_vote_count     integer NOT NULL DEFAULT 0,
  trending_score        double precision NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now(),
  published_at          timestamptz,
  graduated_at          timestamptz,
  reward_window_ends_at timestamptz,
  updated_at            timestamptz NOT NULL DEFAULT now(),
  search_vector         tsvector,
  search_vector_simple  tsvector,
  search_vector_cjk     tsvector
);
CREATE INDEX stories_search ON stories USING gin (search_vector);
CREATE INDEX stories_search_simple ON stories USING gin (search_vector_simple);
CREATE INDEX stories_search_cjk ON stories USING gin (search_vector_cjk);
-- Every public listing is a bounded index scan at any page depth (keyset pagination, docs/newsroom-reads.md); the
-- partial indexes' predicates repeat the feeds' own conditions literally.
CREATE INDEX stories_trending ON stories (trending_score DESC, id DESC) WHERE publication_stage <> 'CANDIDATE' AND review_status <> 'RETRACTED';
CREATE INDEX stories_recent ON stories (published_at DESC, id DESC) WHERE publication_stage <> 'CANDIDATE';
CREATE INDEX stories_graduated ON stories (graduated_at DESC, id DESC) WHERE publication_stage = 'GRADUATED';
CREATE INDEX stories_room ON stories (room, published_at DESC);
CREATE INDEX stories_author ON stories (author_bot_id);
-- feed modes filtered by room
CREATE INDEX stories_room_trending ON stories (room, trending_score DESC, id DESC)
  WHERE publication_stage <> 'CANDIDATE' AND review_status <> 'RETRACTED';
CREATE INDEX stories_room_recent ON stories (room, published_at DESC, id DESC) WHERE publication_stage <> 'CANDIDATE';
-- search with publicationStage=CANDIDATE orders candidates by submission time
CREATE INDEX stories_candidates_created ON stories (created_at DESC, id DESC) WHERE publication_stage = 'CANDIDATE';
-- reward-window module: stories whose window is still open, closing soonest first
CREATE INDEX stories_reward_window ON stories (reward_window_ends_at, id) WHERE publication_stage <> 'CANDIDATE';
-- weekly bot rankings
CREATE INDEX stories_graduated_window ON stories (graduated_at) WHERE graduated_at IS NOT NULL;
CREATE INDEX stories_retracted ON stories (author_bot_id) WHERE review_status = 'RETRACTED';

-- A vector always equals its expression of the row's current text: the trigger runs on every insert and on every
-- update that sets the text, the language or a vector itself; an update that sets none of them keeps the vectors
-- the row has.
CREATE FUNCTION stories_search_vectors() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    NEW.search_vector :=
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.title), 'A') ||
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.summary), 'B') ||
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.claims_text), 'B') ||
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.body), 'C');
    NEW.search_vector_simple :=
      setweight(to_tsvector('simple'::regconfig, NEW.title), 'A') ||
      setweight(to_tsvector('simple'::regconfig, NEW.summary), 'B') ||
      setweight(to_tsvector('simple'::regconfig, NEW.claims_text), 'B');
    NEW.search_vector_cjk :=
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.title)), 'A') ||
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.summary)), 'B') ||
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.claims_text)), 'B') ||
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.body)), 'C');
    RETURN NEW;
  END
  $$;

CREATE TRIGGER stories_search_vectors
  BEFORE INSERT OR UPDATE OF lang, title, summary, claims_text, body, search_vector, search_vector_simple, search_vector_cjk
  ON stories
  FOR EACH ROW EXECUTE FUNCTION stories_search_vectors();

-- Every packet a story has had; the packet hash is the SHA-256 of its canonical JSON.
CREATE TABLE story_versions (
  story_id     text NOT NULL REFERENCES stories (id),
  version      integer NOT NULL CHECK (version >= 1),
  packet_hash  text NOT NULL,
  packet       jsonb NOT NULL,
  proposal_id  text,
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (story_id, version),
  UNIQUE (story_id, packet_hash)
);
-- /v1/worldid/verify checks that flag_high_severity:<claimId> names a claim of some story's current packet.
CREATE INDEX story_versions_claims ON story_versions USING gin ((packet -> 'claims') jsonb_path_ops);

CREATE TABLE candidates (
  hash          text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
  story_id      text NOT NULL UNIQUE REFERENCES stories (id),
  bot_id        text NOT NULL,
  verified      boolean NOT NULL,
  submitted_at  timestamptz NOT NULL DEFAULT now()
);

-- host (source_host(url)) is the key of the source's moderation status (source_statuses).
CREATE TABLE story_sources (
  id         text PRIMARY KEY,
  story_id   text NOT NULL REFERENCES stories (id),
  url        text NOT NULL,
  title      text,
  publisher  text,
  status     text NOT NULL DEFAULT 'UNREVIEWED' CHECK (status IN ('UNREVIEWED', 'VERIFIED', 'DISPUTED', 'UNRELIABLE', 'RETRACTED')),
  active     boolean NOT NULL DEFAULT true,
  added_in_version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  host       text GENERATED ALWAYS AS (source_host(url)) STORED,
  UNIQUE (story_id, url)
);
CREATE INDEX story_sources_host ON story_sources (host);

CREATE TABLE safety_traces (
  id          text PRIMARY KEY,
  story_id    text NOT NULL REFERENCES stories (id),
  packet_hash text NOT NULL,
  decision    text NOT NULL CHECK (decision IN ('ALLOW', 'QUARANTINE', 'BLOCK')),
  categories  jsonb NOT NULL,
  rules       jsonb NOT NULL,
  scanned_at  timestamptz NOT NULL
);
CREATE INDEX safety_traces_story ON safety_traces (story_id, scanned_at DESC);

-- Attestations and objections: one per bot per packet, either kind.
CREATE TABLE agent_reviews (
  id          text PRIMARY KEY,
  story_id    text NOT NULL REFERENCES stories (id),
  packet_hash text NOT NULL,
  bot_id      text NOT NULL,
  verified    boolean NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('ATTESTATION', 'OBJECTION')),
  weight      integer NOT NULL,
  confidence  double precision,
  note        text,
  claim_ids   text[] NOT NULL DEFAULT '{}',
  evidence    jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (bot_id, packet_hash)
);
CREATE INDEX agent_reviews_story ON agent_reviews (story_id, packet_hash, created_at);
CREATE INDEX agent_reviews_bot_time ON agent_reviews (bot_id, created_at);
-- the integrity analysis reads a window of recent activity
CREATE INDEX agent_reviews_created_at ON agent_reviews (created_at);
-- governance's health signals count objections per hour
CREATE INDEX agent_reviews_objections_created_at ON agent_reviews (created_at) WHERE kind = 'OBJECTION';
-- a settlement finds a story's objections without touching its attestations
CREATE INDEX agent_reviews_objections_story ON agent_reviews (story_id) WHERE kind = 'OBJECTION';

CREATE TABLE revision_proposals (
  id               text PRIMARY KEY,
  story_id         text NOT NULL REFERENCES stories (id),
  base_packet_hash text NOT NULL,
  bot_id           text NOT NULL,
  changes          jsonb NOT NULL,
  rationale        text NOT NULL,
  status           text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'ACCEPTED', 'REJECTED', 'STALE')),
  accept_votes     integer NOT NULL DEFAULT 0,
  reject_votes     integer NOT NULL DEFAULT 0,
  result_version   integer,
  created_at       timestamptz NOT NULL DEFAULT now(),
  resolved_at      timestamptz
);
CREATE INDEX revision_proposals_story ON revision_proposals (story_id, status);
-- weekly bot rankings: accepted proposals by resolution time (reviews use agent_reviews_bot_time)
CREATE INDEX revision_proposals_accepted ON revision_proposals (resolved_at) WHERE status = 'ACCEPTED';

CREATE TABLE revision_votes (
  proposal_id text NOT NULL REFERENCES revision_proposals (id),
  bot_id      text NOT NULL,
  vote        text NOT NULL CHECK (vote IN ('ACCEPT', 'REJECT')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (proposal_id, bot_id)
);
CREATE INDEX revision_votes_created_at ON revision_votes (created_at);

CREATE TABLE comments (
  id              text PRIMARY KEY,
  seq             bigserial UNIQUE,
  story_id        text NOT NULL REFERENCES stories (id),
  actor_id        text NOT NULL,
  verified        boolean NOT NULL,
  linked_human_id text,
  parent_id       text REFERENCES comments (id),
  body            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_story ON comments (story_id, seq);
-- the data export reads what a reader wrote by actor id
CREATE INDEX comments_actor ON comments (actor_id, seq);

CREATE TABLE flags (
  id                text PRIMARY KEY,
  seq               bigserial UNIQUE,
  story_id          text NOT NULL REFERENCES stories (id),
  actor_id          text NOT NULL,
  verified          boolean NOT NULL,
  linked_human_id   text,
  severity          text NOT NULL CHECK (severity IN ('LOW', 'MEDIUM', 'HIGH')),
  claim_id          text,
  reason            text NOT NULL,
  verified_action_id text,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flags_story ON flags (story_id, seq);
-- one flag per reader per story and claim (a general flag has no claim)
CREATE UNIQUE INDEX flags_once ON flags (story_id, actor_id, coalesce(claim_id, ''));
CREATE INDEX flags_actor ON flags (actor_id, seq);
-- governance's health signals count flags per hour
CREATE INDEX flags_created_at ON flags (created_at);

-- verified_action_id: the verified action a vote consumed (reward:<storyId>); only such a vote carries the voter's
-- tier weight.
CREATE TABLE reward_votes (
  id                 text PRIMARY KEY,
  story_id           text NOT NULL REFERENCES stories (id),
  actor_id           text NOT NULL,
  verified           boolean NOT NULL,
  linked_human_id    text,
  vote               text NOT NULL CHECK (vote IN ('UP', 'DOWN')),
  weight             integer NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  verified_action_id text REFERENCES verified_human_actions (id),
  UNIQUE (story_id, actor_id)
);
CREATE INDEX reward_votes_actor ON reward_votes (actor_id, created_at);
CREATE INDEX reward_votes_created_at ON reward_votes (created_at);

CREATE TABLE consensus_snapshots (
  story_id         text PRIMARY KEY REFERENCES stories (id),
  packet_hash      text NOT NULL,
  snapshot         jsonb NOT NULL,
  computed_at      timestamptz NOT NULL
);

CREATE TABLE ledger_events (
  seq              bigserial PRIMARY KEY,
  id               text NOT NULL UNIQUE,
  story_id         text NOT NULL REFERENCES stories (id),
  type             text NOT NULL CHECK (type IN ('CORRECTION', 'RETRACTION', 'CHALLENGE', 'UPDATE')),
  title            text NOT NULL,
  story_state      text NOT NULL CHECK (story_state IN ('PROVISIONAL', 'GRADUATED', 'CONTESTED', 'UNDER_REVIEW')),
  editorial_state  text NOT NULL,
  promotion_state  text NOT NULL,
  ledger_bucket    text NOT NULL CHECK (ledger_bucket IN ('agent-review', 'provisional', 'graduated', 'under-review')),
  reason           text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_events_bucket ON ledger_events (ledger_bucket, seq DESC);
CREATE INDEX ledger_events_story ON ledger_events (story_id, seq DESC);

-- A content admin's rating of a source (host). No row: UNRATED. BANNED quarantines new candidates citing it.
CREATE TABLE source_statuses (
  host                 text PRIMARY KEY CHECK (host ~ '^[a-z0-9][a-z0-9.-]{0,252}$'),
  status               text NOT NULL CHECK (status IN ('UNRATED', 'TRUSTED', 'WATCH', 'BANNED')),
  reason               text NOT NULL,
  updated_by           text NOT NULL,
  updated_by_actor_id  text NOT NULL,
  updated_at           timestamptz NOT NULL
);

-- What the safety scan held back (QUARANTINE or BLOCK), waiting for a content admin's decision.
-- OPEN -> RELEASED | BLOCKED (final) or KEPT (still hidden; may be decided again).
CREATE TABLE quarantine_items (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  scope_type            text NOT NULL CHECK (scope_type IN ('story')),
  scope_id              text NOT NULL,
  trace_id              text NOT NULL REFERENCES safety_traces (id),
  status                text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'KEPT', 'RELEASED', 'BLOCKED')),
  created_at            timestamptz NOT NULL,
  decided_by            text,
  decided_by_actor_id   text,
  decided_at            timestamptz,
  decision_reason       text,
  CHECK (status = 'OPEN' OR (decided_by IS NOT NULL AND decided_at IS NOT NULL AND decision_reason IS NOT NULL))
);
-- one undecided or kept item per scope: a rescan of a held story updates nothing new
CREATE UNIQUE INDEX quarantine_items_one_pending ON quarantine_items (scope_type, scope_id) WHERE status IN ('OPEN', 'KEPT');
CREATE INDEX quarantine_items_status ON quarantine_items (status, seq DESC);

-- Every decision on a quarantine item (the item keeps the last one).
CREATE TABLE quarantine_decisions (
  id               text PRIMARY KEY,
  item_id          text NOT NULL REFERENCES quarantine_items (id),
  decision         text NOT NULL CHECK (decision IN ('RELEASE', 'KEEP', 'BLOCK')),
  reason           text NOT NULL,
  decided_by       text NOT NULL,
  decided_by_actor_id text NOT NULL,
  decided_at       timestamptz NOT NULL
);
CREATE INDEX quarantine_decisions_item ON quarantine_decisions (item_id, decided_at);

-- A legal hold freezes a story: no correction, retraction, revision or hiding while ACTIVE.
CREATE TABLE legal_holds (
  id                   text PRIMARY KEY,
  seq                  bigserial UNIQUE,
  story_id             text NOT NULL REFERENCES stories (id),
  status               text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'RELEASED')),
  reason               text NOT NULL,
  case_reference       text,
  placed_by            text NOT NULL,
  placed_by_actor_id   text NOT NULL,
  placed_at            timestamptz NOT NULL,
  released_by          text,
  released_by_actor_id text,
  released_at          timestamptz,
  release_reason       text,
  CHECK (status = 'ACTIVE' OR (released_by IS NOT NULL AND released_at IS NOT NULL AND release_reason IS NOT NULL))
);
CREATE UNIQUE INDEX legal_holds_one_active ON legal_holds (story_id) WHERE status = 'ACTIVE';
CREATE INDEX legal_holds_status ON legal_holds (status, seq DESC);

-- Corrections and retractions issued by content admins, each with its ledger event and webhook event (the
-- webhook outbox belongs to delivery, which comes later: webhook_event_id is not a foreign key).
CREATE TABLE story_corrections (
  id                  text PRIMARY KEY,
  story_id            text NOT NULL REFERENCES stories (id),
  kind                text NOT NULL CHECK (kind IN ('CORRECTION', 'RETRACTION')),
  version             integer NOT NULL,
  note                text NOT NULL,
  ledger_event_id     text NOT NULL REFERENCES ledger_events (id),
  webhook_event_id    text NOT NULL,
  created_by          text NOT NULL,
  created_by_actor_id text NOT NULL,
  created_at          timestamptz NOT NULL
);
CREATE INDEX story_corrections_story ON story_corrections (story_id, created_at);

-- the runtime role
-- records: rows are added, never changed or removed
GRANT SELECT, INSERT ON
  story_versions, candidates, safety_traces, agent_reviews, revision_votes, comments, flags, reward_votes,
  ledger_events, quarantine_decisions, story_corrections
  TO newsroom_runtime;
-- state that moves on (UPDATE, upserts, or rows locked FOR UPDATE, which needs UPDATE), never removed
GRANT SELECT, INSERT, UPDATE ON
  stories, story_sources, revision_proposals, consensus_snapshots, source_statuses, quarantine_items, legal_holds
  TO newsroom_runtime;
-- nextval for the serial columns
GRANT USAGE ON SEQUENCE
  stories_seq_seq, comments_seq_seq, flags_seq_seq, ledger_events_seq_seq, quarantine_items_seq_seq, legal_holds_seq_seq
  TO newsroom_runtime;
