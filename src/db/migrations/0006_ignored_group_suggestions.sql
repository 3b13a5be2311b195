CREATE TABLE `ignored_group_suggestions` (
	`key` text PRIMARY KEY NOT NULL,
	`archive_ids` text NOT NULL,
	`ignored_at` integer NOT NULL
);
