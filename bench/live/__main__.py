from bench.live.run import main

main()
