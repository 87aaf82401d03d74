// Builds the migrated test-database template (PGlite, or PostgreSQL with TEST_DATABASE_URL) once before the
// test files start, so that concurrently starting files do not all build it. Run by scripts/run-tests.mjs.
import { prepareTemplate } from '../test/helpers/db-template.js';

await prepareTemplate();
