CREATE TABLE "drop_meter_seconds" (
	"kind" text NOT NULL,
	"sale_id" integer NOT NULL,
	"second" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "drop_meter_seconds_kind_sale_id_second_pk" PRIMARY KEY("kind","sale_id","second"),
	CONSTRAINT "drop_meter_seconds_kind" CHECK ("drop_meter_seconds"."kind" in ('buy', 'busy'))
);
