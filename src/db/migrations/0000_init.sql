CREATE TABLE `archive_pages` (
	`archive_id` text PRIMARY KEY NOT NULL,
	`pages` text NOT NULL,
	FOREIGN KEY (`archive_id`) REFERENCES `archives`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `archives` (
	`id` text PRIMARY KEY NOT NULL,
	`path` text NOT NULL,
	`filename` text NOT NULL,
	`extension` text NOT NULL,
	`title` text NOT NULL,
	`tags` text DEFAULT '' NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`isnew` integer DEFAULT true NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`pagecount` integer DEFAULT 0 NOT NULL,
	`lastreadtime` integer DEFAULT 0 NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`mtime_ms` integer DEFAULT 0 NOT NULL,
	`toc` text DEFAULT '{}' NOT NULL,
	`thumbhash` text,
	`cover_page` integer DEFAULT 1 NOT NULL,
	`has_patch` integer DEFAULT false NOT NULL,
	`unreadable` text,
	`unlinked` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `archives_path_unique` ON `archives` (`path`);--> statement-breakpoint
CREATE INDEX `archives_title` ON `archives` (`title`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`state` text NOT NULL,
	`progress` real DEFAULT 0 NOT NULL,
	`args` text DEFAULT '{}' NOT NULL,
	`result` text,
	`result_truncated` integer DEFAULT false NOT NULL,
	`error` text,
	`notes` text DEFAULT '{}' NOT NULL,
	`unique_key` text,
	`priority` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`downloaded_bytes` integer,
	`total_bytes` integer,
	`rate_limit_bytes_per_sec` integer,
	`rate_limit_matched_pattern` text
);
--> statement-breakpoint
CREATE INDEX `jobs_state` ON `jobs` (`state`);--> statement-breakpoint
CREATE INDEX `jobs_unique_key` ON `jobs` (`unique_key`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`last_used_at` integer,
	`last_used_ip` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_secret_hash_unique` ON `api_tokens` (`secret_hash`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`family_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`rotated_at` integer,
	FOREIGN KEY (`family_id`) REFERENCES `session_families`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refresh_tokens_family` ON `refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE TABLE `session_families` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`ip` text,
	`user_agent` text,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE TABLE `bookmarks` (
	`archive_id` text NOT NULL,
	`page` integer NOT NULL,
	`name` text,
	`bookmarked_at` integer NOT NULL,
	PRIMARY KEY(`archive_id`, `page`)
);
--> statement-breakpoint
CREATE TABLE `categories` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`search` text DEFAULT '' NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`visible_to_guest` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `category_members` (
	`category_id` text NOT NULL,
	`member_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`category_id`, `member_id`),
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `category_members_member` ON `category_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `tankoubon_members` (
	`tankoubon_id` text NOT NULL,
	`archive_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`tankoubon_id`, `archive_id`),
	FOREIGN KEY (`tankoubon_id`) REFERENCES `tankoubons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tankoubon_members_archive` ON `tankoubon_members` (`archive_id`);--> statement-breakpoint
CREATE TABLE `tankoubons` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '' NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`lastreadtime` integer DEFAULT 0 NOT NULL,
	`thumbnail_page` integer,
	`created_at` integer NOT NULL
);
