-- Every instance keeps the shipping rates and free-shipping promotions in memory beside the shop settings, since
-- every cart and checkout prices shipping from them: the same channel drops them when any writer (the shipping
-- tools, audit.revert, an import, psql) changes either table.
CREATE TRIGGER "shipping_rates_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shipping_rates"
  FOR EACH STATEMENT EXECUTE FUNCTION "butik_shop_config_changed"();--> statement-breakpoint
CREATE TRIGGER "promotions_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "promotions"
  FOR EACH STATEMENT EXECUTE FUNCTION "butik_shop_config_changed"();
