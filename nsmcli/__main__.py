from nsmcli.cli.main import main

main()
