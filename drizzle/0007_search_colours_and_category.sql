-- Edited by hand after drizzle-kit: search_category must exist (and be filled) before search_vector reads it,
-- the GIN index went with the old column, and the triggers that keep search_category are not Drizzle's to write.
ALTER TABLE "products" ADD COLUMN "search_category" text;--> statement-breakpoint
UPDATE "products" SET "search_category" = "categories"."name" FROM "categories" WHERE "categories"."id" = "products"."category_id";--> statement-breakpoint
ALTER TABLE "products" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', translate(coalesce(name, ''), '/\.@:_+', '       ')), 'A') ||
    setweight(to_tsvector('simple', translate(coalesce(brand, ''), '/\.@:_+', '       ')), 'B') ||
    setweight(to_tsvector('simple', translate(coalesce(frame_color, ''), '/\.@:_+', '       ')), 'B') ||
    setweight(to_tsvector('simple', translate(coalesce(lens_color, ''), '/\.@:_+', '       ')), 'B') ||
    setweight(to_tsvector('simple', translate(coalesce(search_category, ''), '/\.@:_+', '       ')), 'B') ||
    setweight(to_tsvector('simple', translate(coalesce(description, ''), '/\.@:_+', '       ')), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
-- A product takes its category's name when it is written with a category (a BEFORE trigger runs before the
-- generated search_vector is computed, so the vector sees the name). Unqualified names resolve through the
-- connection's search_path, like every statement of the application.
CREATE FUNCTION "products_take_category_name"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_category := (SELECT "name" FROM "categories" WHERE "id" = NEW.category_id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_take_category_name" BEFORE INSERT OR UPDATE OF "category_id" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_take_category_name"();--> statement-breakpoint
-- A renamed category renames itself in its products' search_category (and so in their search_vector).
CREATE FUNCTION "categories_pass_name_to_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" SET "search_category" = NEW.name WHERE "category_id" = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "categories_pass_name_to_products" AFTER UPDATE OF "name" ON "categories"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION "categories_pass_name_to_products"();
