"""Reading the table from camera frames: printed code stickers, and a player's board from one photo."""
