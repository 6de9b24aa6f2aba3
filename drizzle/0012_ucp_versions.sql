ALTER TABLE "ucp_checkout_sessions" ADD COLUMN "context" jsonb;--> statement-breakpoint
ALTER TABLE "ucp_checkout_sessions" ADD COLUMN "signals" jsonb;--> statement-breakpoint
ALTER TABLE "ucp_orders" ADD COLUMN "ucp_version" text DEFAULT '2026-01-11' NOT NULL;