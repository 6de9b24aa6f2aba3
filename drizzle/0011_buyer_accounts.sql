CREATE TABLE "buyers" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ucp_orders" ADD COLUMN "buyer_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "buyers_email_idx" ON "buyers" USING btree ("email");--> statement-breakpoint
ALTER TABLE "ucp_orders" ADD CONSTRAINT "ucp_orders_buyer_id_buyers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ucp_orders_buyer_idx" ON "ucp_orders" USING btree ("buyer_id");