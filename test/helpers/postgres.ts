/** The throwaway PostgreSQL cluster the tests start (shared with the bench, which measures warm starts on it). */
export { POSTGRES_INSTALL_COMMAND, postgresBinDir, startPostgres, type TestPostgres } from "../../src/bench/postgres.js";
