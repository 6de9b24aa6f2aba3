DROP INDEX "order_refunds_order_idx";--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "number" integer;--> statement-breakpoint
UPDATE "order_refunds" SET "number" = numbered."number" FROM (
	SELECT "id", row_number() OVER (PARTITION BY "order_id" ORDER BY "created_at", "id") AS "number" FROM "order_refunds"
) AS numbered WHERE numbered."id" = "order_refunds"."id";--> statement-breakpoint
ALTER TABLE "order_refunds" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_order_number_idx" ON "order_refunds" USING btree ("order_id","number");
