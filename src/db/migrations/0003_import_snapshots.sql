CREATE TABLE `import_snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`reason` text NOT NULL,
	`job_id` integer,
	`archives` integer NOT NULL,
	`categories` integer NOT NULL,
	`tankoubons` integer NOT NULL,
	`document` text NOT NULL
);
