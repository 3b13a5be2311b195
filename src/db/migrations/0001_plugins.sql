CREATE TABLE `plugins` (
	`namespace` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`customargs` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	`origin` text NOT NULL,
	`source` text NOT NULL,
	`sha256` text NOT NULL,
	`info` text NOT NULL
);
