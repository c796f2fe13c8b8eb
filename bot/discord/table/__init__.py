"""The table's channel: the presenter of the service's notices (lobby message, table
picture, mentions, announcements) and its routing of private notices to their feature."""
