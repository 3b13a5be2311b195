CREATE TABLE `split_suggestions` (
	`archive_id` text PRIMARY KEY NOT NULL,
	`method` text NOT NULL,
	`outputs` text NOT NULL,
	`file_stamp` text NOT NULL,
	`created_at` integer NOT NULL
);
