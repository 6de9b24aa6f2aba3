CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"caller" text NOT NULL,
	"agent_name" text NOT NULL,
	"actor" jsonb NOT NULL,
	"channel" text NOT NULL,
	"tool" text NOT NULL,
	"input" jsonb NOT NULL,
	"idempotency_key" text,
	"reason" text NOT NULL,
	"fingerprint" text NOT NULL,
	"preview" jsonb,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"note" text,
	"result" jsonb,
	"problem" jsonb
);
--> statement-breakpoint
CREATE TABLE "policy_documents" (
	"id" integer PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "approved_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_idempotency_idx" ON "approvals" USING btree ("caller","idempotency_key");--> statement-breakpoint
CREATE INDEX "approvals_caller_idx" ON "approvals" USING btree ("caller","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "approvals_status_idx" ON "approvals" USING btree ("status","created_at");--> statement-breakpoint
-- The policy document is read through the same in-memory cache as the settings: a change reaches every instance by the feed.
CREATE TRIGGER "policy_documents_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "policy_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION "butik_shop_config_changed"();
