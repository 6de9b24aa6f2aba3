-- Trigram matching for partial words and typos in products.search. Installed in public so that
-- per-schema test runs (search_path = <schema>, public) share one copy.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
