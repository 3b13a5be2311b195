CREATE TABLE `download_queue` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`plugin_namespace` text NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`job_id` integer,
	`error` text,
	`title` text,
	`category` text,
	`auto_fetch_metadata` integer DEFAULT false NOT NULL,
	`archive_ids` text DEFAULT '[]' NOT NULL,
	`temp_path` text,
	`existing_id` text,
	`revision_confirmed` integer,
	`pending_filename_conflict` text,
	`pending_revision_confirmation` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `download_queue_state` ON `download_queue` (`state`);