DROP INDEX "orders_newest_idx";--> statement-breakpoint
DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_email_idx";--> statement-breakpoint
DROP INDEX "products_visible_newest_idx";--> statement-breakpoint
DROP INDEX "products_category_idx";--> statement-breakpoint
DROP INDEX "products_brand_idx";--> statement-breakpoint
DROP INDEX "products_frame_color_idx";--> statement-breakpoint
DROP INDEX "products_lens_color_idx";--> statement-breakpoint
DROP INDEX "products_featured_idx";--> statement-breakpoint
ALTER TABLE "products" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', translate(coalesce(name, ''), '/\.@:_+', '       ')), 'A') ||
    setweight(to_tsvector('simple', translate(coalesce(brand, ''), '/\.@:_+', '       ')), 'B') ||
    setweight(to_tsvector('simple', translate(coalesce(description, ''), '/\.@:_+', '       ')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "name_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', translate(coalesce(name, ''), '/\.@:_+', '       '))) STORED;--> statement-breakpoint
CREATE INDEX "products_name_search_idx" ON "products" USING gin ("name_vector");--> statement-breakpoint
-- Dropping search_vector above dropped its index; drizzle-kit does not know, so it is rebuilt here.
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "orders_newest_idx" ON "orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_email_idx" ON "orders" USING btree (lower("email"),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_visible_newest_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"name_vector") WHERE "products"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "products"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "products_brand_idx" ON "products" USING btree (lower("brand"),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_frame_color_idx" ON "products" USING btree (lower("frame_color"),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_lens_color_idx" ON "products" USING btree (lower("lens_color"),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_featured_idx" ON "products" USING btree ("featured","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "products"."deleted_at" is null;--> statement-breakpoint
-- Written by hand (Drizzle has no table storage parameters). Checkout changes a product's stock; with free room on
-- its page that is a HOT update, which leaves all twelve product indexes (three of them GIN) untouched.
ALTER TABLE "products" SET (fillfactor = 90);
