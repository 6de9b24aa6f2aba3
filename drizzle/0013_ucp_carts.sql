CREATE TABLE "ucp_carts" (
	"cart_id" text PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"key_id" text,
	"buyer" jsonb,
	"context" jsonb,
	"canceled_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ucp_carts" ADD CONSTRAINT "ucp_carts_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE cascade ON UPDATE no action;