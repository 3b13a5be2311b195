CREATE TABLE `archive_hashes` (
	`archive_id` text PRIMARY KEY NOT NULL,
	`cover_hash` text NOT NULL,
	`cover_source` text NOT NULL,
	`page_hashes` text,
	`pages_source` text,
	FOREIGN KEY (`archive_id`) REFERENCES `archives`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `duplicate_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`archive_ids` text NOT NULL,
	`job_id` integer,
	`found_at` integer NOT NULL
);
