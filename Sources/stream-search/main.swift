// Placeholder until the command-line issue lands.
print("stream-search")
