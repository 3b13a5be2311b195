ALTER TABLE `jobs` ADD `kind` text;--> statement-breakpoint
-- Download jobs were named after their plugin's namespace and run by a kind of that name: their
-- kind is now `download`, and their arguments carry the namespace as new ones do.
UPDATE `jobs` SET `kind` = 'download', `args` = json_set(`args`, '$.namespace', `name`) WHERE `name` GLOB '*download/*';
