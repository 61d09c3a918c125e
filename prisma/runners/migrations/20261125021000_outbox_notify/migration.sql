-- Wakes the outbox relay (libs/platform/src/events/outbox.ts) when events are committed: NOTIFY is delivered only
-- when the inserting transaction commits, once per transaction and channel. Written by hand: Prisma does not model
-- functions or triggers (and so leaves them alone).
CREATE FUNCTION "outbox_events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_TABLE_SCHEMA || '.outbox_events', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "outbox_events_notify" AFTER INSERT ON "outbox_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "outbox_events_notify"();
