CREATE TABLE "agent_pauses" (
	"agent" text PRIMARY KEY NOT NULL,
	"paused_at" timestamp with time zone NOT NULL,
	"paused_by" text NOT NULL
);
--> statement-breakpoint
-- Every instance keeps the paused agents in memory beside the shop settings: the same channel drops them when
-- any writer (the console, the CLI, psql) pauses or resumes one.
CREATE TRIGGER "agent_pauses_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "agent_pauses"
  FOR EACH STATEMENT EXECUTE FUNCTION "butik_shop_config_changed"();
