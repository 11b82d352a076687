from nblint.cli import main

main()
