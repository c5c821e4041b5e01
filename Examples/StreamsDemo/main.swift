print("StreamsDemo")
