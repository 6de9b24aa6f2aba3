-- Every instance keeps the shop settings and feature flags in memory and drops them when this channel speaks.
-- A statement trigger catches every writer (the tools, audit.revert, an import, psql); PostgreSQL delivers the
-- notice when the writing transaction commits, and never for one that rolls back.
CREATE FUNCTION "butik_shop_config_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('butik_shop_config', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "settings_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "settings"
  FOR EACH STATEMENT EXECUTE FUNCTION "butik_shop_config_changed"();--> statement-breakpoint
CREATE TRIGGER "feature_flags_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "feature_flags"
  FOR EACH STATEMENT EXECUTE FUNCTION "butik_shop_config_changed"();
