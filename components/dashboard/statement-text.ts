// The statement's words live in the domain (the CSV export service uses them too); re-exported here.
export { entryDescription } from "@/lib/domain/statement-labels";
